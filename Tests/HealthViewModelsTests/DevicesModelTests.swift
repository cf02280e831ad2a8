import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

@MainActor
struct DevicesModelTests {
    @Test(arguments: ServiceFactory.all)
    func seeWeightIsOfferedOnlyForDevicesWhoseReadingsCarryAWeight(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let scale = try await world.device("Withings Device", named: "Bathroom scale", on: service)
            _ = try await world.device("Activity Tracker", named: "Watch", on: service)
            try await world.weigh(72.4, at: "2026-11-20 07:30", device: scale, on: service)

            let model = DevicesModel(service: service, clock: world.clock)
            await model.refresh().complete()

            #expect(model.problem == nil)
            let rows = Dictionary(uniqueKeysWithValues: model.rows.map { ($0.name, $0) })
            let scaleRow = try require(rows["Bathroom scale"], "the scale is listed")
            let watchRow = try require(rows["Watch"], "the watch is listed")
            #expect(scaleRow.canSeeWeight)
            #expect(scaleRow.seeWeightReason == nil)
            #expect(scaleRow.lastReading == "72.4 kg")
            #expect(scaleRow.lastWhen == "Nov 20, 2026 07:30")
            #expect(scaleRow.lastAge == "10 h ago")
            #expect(!watchRow.canSeeWeight)
            #expect(watchRow.seeWeightReason == "Activity Tracker readings carry no weight")
            #expect(watchRow.lastReading == "no readings yet")
            #expect(model.selectedRow?.name == "Bathroom scale")
            #expect(model.recent.map(\.when) == ["Nov 20, 2026 07:30"], "the selected device's latest readings")
            #expect(model.recent.first?.values.hasPrefix("Weight 72.4 kg") == true)
        }
    }

    /// The sync doctor's line per link: what came lately, or SILENT, judged by the dashboard's clock.
    @Test(arguments: ServiceFactory.all)
    func eachLinkSaysWhatCameLatelyOrThatItIsSilent(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let store = try await world.store()
            let alice = try require(try await store.user(named: "alice"), "alice has an account")
            let now = ViewModelWorld.now
            let (phone, _) = try await store.createPushLink(kind: .healthConnect, userID: alice.id, signingSecret: nil,
                                                            at: now.addingTimeInterval(-86_400))
            try await store.noteArrival(LinkArrival(readings: [ReadingKind.weight.name: 2, ReadingKind.steps.name: 1]), linkID: phone,
                                        at: now.addingTimeInterval(-3 * 3600))
            _ = try await store.createPushLink(kind: .openScale, userID: alice.id, signingSecret: nil, at: now.addingTimeInterval(-3 * 86_400))

            let model = DevicesModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(model.problem == nil)
            #expect(model.links == [LinkLine(kind: "openscale", state: "SILENT: nothing ever came", silent: true),
                                    LinkLine(kind: "health-connect", state: "3 h ago · Weight 2, Steps 1", silent: false)],
                    "oldest link first")
        }
    }

    /// Issue 11: the profile's units are the one preference; the devices table reads in them too.
    @Test(arguments: ServiceFactory.all)
    func readingsShowInTheProfilesUnits(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let scale = try await world.device("Withings Device", named: "Bathroom scale", on: service)
            let food = try await world.device("Calorie Tracker", named: "Food", on: service)
            try await world.weigh(72.4, at: "2026-11-20 07:30", device: scale, on: service)
            _ = try await service.post(NewMessage(sdid: food.id, ts: ViewModelWorld.date("2026-11-20 12:00").millisecondsSince1970,
                                                  data: [Field.calories: .number(650)]))
            var profile = try await service.profile()
            profile.massUnit = .lb
            profile.energyUnit = .kJ
            try await service.updateProfile(profile)

            let model = DevicesModel(service: service, clock: world.clock)
            await model.refresh().complete()
            let rows = Dictionary(uniqueKeysWithValues: model.rows.map { ($0.name, $0.lastReading) })
            // 72.4 kg ÷ 0.45359237 = 159.61 lb; 650 kcal × 4.184 = 2,719.6 kJ, shown whole.
            #expect(rows["Bathroom scale"] == "159.6 lb")
            #expect(rows["Food"] == "2,720 kJ eaten")
        }
    }

    @Test(arguments: ServiceFactory.all)
    func theUserCardShowsWhoIsSignedInWithLocalDates(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn("alice")
            let model = DevicesModel(service: service, clock: world.clock)
            await model.refresh().complete()

            let lines = Dictionary(uniqueKeysWithValues: model.userLines.map { ($0.label, $0.value) })
            #expect(lines["Name"] == "alice")
            #expect(lines["Full name"] == "Alice Example")
            #expect(lines["Email"] == "alice@example.com")
            #expect(lines["ID"]?.isEmpty == false)
            // "Nov 20, 2026 07:30": month, day, year, 24-hour time.
            let created = try require(lines["Created"], "a created date")
            #expect(created.range(of: #"^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}$"#, options: .regularExpression) != nil)
        }
    }

    @Test(arguments: ServiceFactory.all)
    func addingADeviceListsItAndSelectsIt(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let model = DevicesModel(service: service, clock: world.clock)
            await model.refresh().complete()
            #expect(model.rows.isEmpty)

            model.openAddDevice()
            let form = try require(model.adding, "the form opens")
            let foodLog = try require(form.typeNames.firstIndex(of: "Calorie Tracker"), "Calorie Tracker is offered")
            model.moveTypeSelection(by: foodLog)
            await model.submitAddDevice().complete()
            for character in "Kitchen log" { model.addDeviceType(character) }
            await model.submitAddDevice().complete()

            #expect(model.adding == nil)
            #expect(model.selectedRow?.name == "Kitchen log")
            #expect(model.selectedRow?.typeName == "Calorie Tracker")
        }
    }
}
