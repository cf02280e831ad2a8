import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

@MainActor
struct EnergyModelTests {
    private func log(_ field: String, _ kcal: Double, at local: String, device: Device, on service: any HealthService) async throws {
        try await service.post(NewMessage(sdid: device.id, ts: ViewModelWorld.date(local).millisecondsSince1970,
                                          data: [field: .number(kcal)]))
    }

    @Test(arguments: ServiceFactory.all)
    func aCompleteProfileGivesAllFourFiguresAndTheFormula(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            try await service.updateProfile(Profile(birthDate: Day(year: 1990, month: 1, day: 31), sex: .female, heightCm: 168))
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            let watch = try await world.device("Activity Tracker", named: "Watch", on: service)
            try await world.weigh(65, at: "2026-11-20 07:00", device: scale, on: service)
            try await log(Field.calories, 1800, at: "2026-11-20 12:00", device: food, on: service)
            try await log(Field.activeEnergy, 400, at: "2026-11-20 17:00", device: watch, on: service)

            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()

            #expect(model.problem == nil)
            #expect(model.title == "Today · Fri, Nov 20, 2026")
            #expect(model.lines.map(\.label) == ["Active", "Resting", "Consumed"])
            #expect(model.lines[0].value == "400")
            #expect(model.lines[2].value == "1,800")
            #expect(model.lines.allSatisfy { $0.unit == "kcal" })
            // Mifflin-St Jeor, woman, 65 kg, 168 cm, 36 years: 10·65 + 6.25·168 − 5·36 − 161 = 1,359 kcal/day;
            // at 18:00, 75 % of the day has gone: 1,019 kcal. Net = 1,800 − 400 − 1,019.
            #expect(model.lines[1].value == "1,019")
            #expect(model.net == "+381 kcal")
            #expect(model.isSurplus)
            #expect(model.netMeaning == "a surplus of 381 kcal")
            #expect(model.restingNote.contains("Mifflin-St Jeor"))
            #expect(model.restingDetail.contains("75% of the day"))
            #expect(model.spent?.value == "1,419")
            #expect(model.missing.isEmpty)
            #expect(model.fixCommand == nil)
            #expect(model.week.map(\.label).first == "Sat Nov 14")
            #expect(model.week.last?.net == "+381")
            #expect(model.week.last?.isSelected == true)
            #expect(model.week.last?.fraction == 1, "the only day with a known net is the week's largest")
            #expect(model.intakeFraction == 1)
            #expect(model.expenditureFraction < 1)
        }
    }

    @Test(arguments: ServiceFactory.all)
    func eachDayOfTheWeekStripCountsOnlyItsOwnLocalDay(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            try await service.updateProfile(Profile(birthDate: Day(year: 1990, month: 1, day: 31), sex: .female, heightCm: 168))
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            // 65 kg from Monday on, 70 kg from Wednesday on: each day's BMR uses the latest weight by its end.
            try await world.weigh(65, at: "2026-11-16 07:00", device: scale, on: service)
            try await world.weigh(70, at: "2026-11-18 07:00", device: scale, on: service)
            // Meals a minute either side of local midnight belong to different days.
            try await log(Field.calories, 2000, at: "2026-11-16 23:59", device: food, on: service)
            try await log(Field.calories, 3000, at: "2026-11-17 00:01", device: food, on: service)
            try await log(Field.calories, 1500, at: "2026-11-19 12:00", device: food, on: service)

            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()

            // Mifflin-St Jeor, woman, 168 cm, 36 years: 10·kg + 1,050 − 180 − 161, i.e. 1,359 at 65 kg and
            // 1,409 at 70 kg, whole days in the past. Saturday and Sunday have no weight yet: no net.
            // Wednesday and today have no food logged: a gap, not a deficit of the BMR.
            #expect(model.problem == nil)
            #expect(model.week.map(\.label) == ["Sat Nov 14", "Sun Nov 15", "Mon Nov 16", "Tue Nov 17", "Wed Nov 18",
                                                 "Thu Nov 19", "Fri Nov 20"])
            #expect(model.week.map(\.net) == ["—", "—", "+641", "+1,641", "not logged", "+91", "not logged"])
            let fractions: [Double] = [0, 0, 641.0 / 1641, 1, 0, 91.0 / 1641, 0]
            #expect(model.week.map(\.fraction) == fractions, "bars scale to the largest logged day; unlogged days have none")
            #expect(model.week.map(\.isPartial) == [false, false, false, false, false, false, true])
        }
    }

    @Test(arguments: ServiceFactory.all)
    func anIncompleteProfileSaysWhatIsMissingAndHowToSetIt(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            try await log(Field.calories, 650, at: "2026-11-20 12:00", device: food, on: service)

            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()

            #expect(model.net == nil)
            #expect(!model.isComplete)
            #expect(model.missing.contains("height"))
            #expect(model.missing.contains("birth date"))
            #expect(model.missing.contains("sex"))
            let command = try require(model.fixCommand, "a command to fix it")
            #expect(command.hasPrefix("hmon profile set"))
            #expect(command.contains("--height-cm"))
            #expect(command.contains("--birth-date"))
            #expect(command.contains("--sex"))
            #expect(model.lines.map(\.label) == ["Active", "Consumed"], "what is known still shows")
            #expect(model.lines.last?.value == "650")
        }
    }

    @Test(arguments: ServiceFactory.all)
    func kilojoulesWhenTheProfilePrefersThem(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            try await service.updateProfile(Profile(energyUnit: .kJ))
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            try await log(Field.calories, 1000, at: "2026-11-20 12:00", device: food, on: service)

            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(model.lines.last?.value == "4,184")
            #expect(model.lines.last?.unit == "kJ")
        }
    }

    @Test(arguments: ServiceFactory.all)
    func previousAndNextDayMoveButNotPastToday(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let model = EnergyModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(!model.canGoForward)
            await model.nextDay().complete()
            #expect(model.day == Day(year: 2026, month: 11, day: 20))

            await model.previousDay().complete()
            #expect(model.day == Day(year: 2026, month: 11, day: 19))
            #expect(model.title == "Thu, Nov 19, 2026")
            #expect(model.canGoForward)
            await model.goToToday().complete()
            #expect(model.isToday)
        }
    }

    @Test(arguments: ServiceFactory.all)
    func loggingConsumedEnergyWritesToTheFoodLog(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let foodLog = FoodLogBox()
            let model = EnergyModel(service: service, clock: world.clock, foodLog: { foodLog.device })
            await model.refresh().complete()

            // Issue 11: no food log yet is no detour: the first entry makes one.
            model.openPrompt()
            #expect(model.prompt != nil)
            for character in "650" { model.promptType(character) }
            await model.submitPrompt().complete()
            await model.submitPrompt().complete()  // no description
            #expect(model.problem == nil)
            #expect(model.prompt == nil)
            #expect(model.notice == "made a food log, \"Food log\", for your entries")
            let made = try await service.devices()
            #expect(made.map(\.name) == ["Food log"])
            #expect(made.first?.dtid == BuiltInDeviceType.calorieTracker.deviceType.id)
            #expect(model.lines.last?.label == "Consumed")
            #expect(model.lines.last?.value == "650")

            // The next entry goes to that log; no second one is made.
            foodLog.device = made.first
            model.openPrompt()
            for character in "200" { model.promptType(character) }
            await model.submitPrompt().complete()
            await model.submitPrompt().complete()  // no description
            #expect(try await service.devices().count == 1)
            #expect(model.lines.last?.value == "850")
        }
    }
}

@MainActor
struct EnergyPromptTests {
    /// The bug of issue 10: from the dashboard, 2000 in a kJ profile or 650.5 kcal failed with
    /// "calories must be a whole number". Both are stored as recorded now.
    @Test(arguments: ServiceFactory.all)
    func decimalsAndKilojoulesAreLoggedAsTyped(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            let model = EnergyModel(service: service, clock: world.clock, foodLog: { food })
            await model.refresh().complete()

            model.openPrompt()
            for character in "650.5" { model.promptType(character) }
            await model.submitPrompt().complete()
            await model.submitPrompt().complete()  // no description
            #expect(model.problem == nil)
            #expect(model.prompt == nil, "the prompt closes when the entry is saved")

            var profile = try await service.profile()
            profile.energyUnit = .kJ
            try await service.updateProfile(profile)
            await model.refresh().complete()
            model.openPrompt()
            for character in "2000" { model.promptType(character) }
            await model.submitPrompt().complete()
            await model.submitPrompt().complete()  // no description
            #expect(model.problem == nil)

            let stored = try await service.lastMessages(device: food.id, count: 2, field: Field.calories)
                .compactMap { $0.data[Field.calories]?.number }.sorted()
            // 2000 kJ ÷ 4.184 kJ/kcal = 478.011472… kcal, kept unrounded; 650.5 kcal as typed.
            #expect(stored.count == 2)
            #expect(abs(stored[0] - 2000 / 4.184) < 1e-9)
            #expect(stored[1] == 650.5)
            // (650.5 + 478.0115) kcal × 4.184 = 4,721.692 kJ, shown whole.
            #expect(model.lines.last?.value == "4,722")
        }
    }
}

@MainActor
struct LearnedExpenditureOnScreenTests {
    /// Two food logs and one weigh-in in the 28 days before today: the screen says what is missing rather
    /// than a figure learned from too little.
    @Test(arguments: ServiceFactory.all)
    func tooLittleDataSaysWhatItNeeds(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let scale = try await world.device("Withings Device", named: "Scale", on: service)
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            try await world.weigh(70, at: "2026-11-18 07:00", device: scale, on: service)
            for day in [17, 18] {
                try await service.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date("2026-11-\(day) 12:00").millisecondsSince1970,
                                                  data: [Field.calories: .number(2000)]))
            }
            let model = EnergyModel(service: service, clock: world.clock)
            #expect(model.learnedExpenditure == nil)
            await model.refresh(withLearned: true).complete()
            #expect(model.learnedExpenditure == "Learned expenditure needs 14 days of food logs and weigh-ins in the last 28 (has 2 and 1)")
        }
    }

    /// The learned figure speaks the profile's unit.
    @Test func theLearnedFigureIsInTheProfilesUnit() async throws {
        let world = try ViewModelWorld()
        let service = try await world.signedIn()
        var profile = try await service.profile()
        profile.energyUnit = .kJ
        try await service.updateProfile(profile)
        let scale = try await world.device("Withings Device", named: "Scale", on: service)
        let food = try await world.device("Calorie Tracker", named: "Food", on: service)
        for day in 1...19 {
            let date = String(format: "2026-11-%02d", day)
            try await world.weigh(70, at: "\(date) 07:00", device: scale, on: service)
            try await service.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date("\(date) 12:00").millisecondsSince1970,
                                              data: [Field.calories: .number(2000)]))
        }
        let model = EnergyModel(service: service, clock: world.clock)
        await model.refresh(withLearned: true).complete()
        // A steady 70 kg on 2,000 kcal a day: 2,000 kcal = 8,368 kJ a day spent.
        #expect(model.learnedExpenditure?.hasPrefix("Learned from your data: 8,368 kJ/day") == true, "\(model.learnedExpenditure ?? "nil")")
    }
}

/// The food log as the devices screen would know it, set by the test.
@MainActor
final class FoodLogBox {
    var device: Device?
}

/// Issue 11, item 3: the day's food log on the energy screen, and `a` asking what was eaten with the recent
/// descriptions to pick from.
@MainActor
struct FoodLogTests {
    @Test(arguments: ServiceFactory.all)
    func theDaysEntriesAreListedAndADescriptionCanBePickedFromRecentOnes(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            func eat(_ kcal: Double, _ what: String?, at local: String, from source: String? = nil) async throws {
                var data: [String: FieldValue] = [Field.calories: .number(kcal)]
                if let what { data[Field.comments] = .text(what) }
                if let source { data[Field.source] = .text(source) }
                _ = try await service.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date(local).millisecondsSince1970, data: data))
            }
            try await eat(320, "lentil soup", at: "2026-11-18 12:30")
            try await eat(105, "Banana", at: "2026-11-19 16:00")
            try await eat(410, "porridge", at: "2026-11-20 07:45", from: "MyFitnessPal · Health Connect")
            try await eat(95, nil, at: "2026-11-20 10:15")

            let model = EnergyModel(service: service, clock: world.clock, foodLog: { food })
            await model.refresh().complete()
            #expect(model.foodEntries.map(\.time) == ["07:45", "10:15"], "only today's, oldest first")
            #expect(model.foodEntries.map(\.what) == ["Porridge", "—"])
            #expect(model.foodEntries.map(\.energy) == ["410 kcal", "95 kcal"])
            #expect(model.foodEntries.map(\.source) == ["MyFitnessPal · Health Connect", ""], "a pushed meal says where it came from")

            model.openPrompt()
            for c in "230" { model.promptType(c) }
            await model.submitPrompt().complete()
            #expect(model.isDescribing, "the amount is asked first, then what it was")
            #expect(model.suggestions == ["porridge", "Banana", "lentil soup"], "newest first, each once")
            for c in "an" { model.promptType(c) }
            #expect(model.suggestions == ["Banana"], "typing filters them (any case, anywhere in the text)")
            model.promptDeleteBackward(); model.promptDeleteBackward()
            model.moveSuggestion(by: 1)
            model.moveSuggestion(by: 1)
            #expect(model.prompt?.text == "Banana", "↓ twice picks the second")
            await model.submitPrompt().complete()
            #expect(model.prompt == nil && !model.isDescribing)
            #expect(model.foodEntries.map(\.what) == ["Porridge", "—", "Banana"])
            #expect(model.foodEntries.last?.time == "18:00")
            #expect(model.lines.last?.value == "735", "410 + 95 + 230 kcal")
        }
    }
}
