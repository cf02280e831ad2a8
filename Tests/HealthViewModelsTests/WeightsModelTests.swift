import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

@MainActor
struct WeightsModelTests {
    /// A signed-in service with a scale, and a weights model over it.
    private func scaleWorld(_ world: ViewModelWorld) async throws -> (any HealthService, Device, WeightsModel) {
        let service = try await world.signedIn()
        let scale = try await world.device("Withings Device", named: "Bathroom scale", on: service)
        let manifest = try await service.manifest(ofType: scale.dtid)
        let model = WeightsModel(service: service, device: scale, manifest: manifest, preferred: nil, clock: world.clock)
        return (service, scale, model)
    }

    @Test(arguments: ServiceFactory.all)
    func latestReadingsShowNewestFirstWithTheirChange(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, scale, model) = try await scaleWorld(world)
            try await world.weigh(73.0, at: "2026-11-18 07:30", device: scale, on: service)
            try await world.weigh(72.6, at: "2026-11-19 07:30", device: scale, on: service)
            try await world.weigh(72.9, at: "2026-11-20 07:30", device: scale, on: service)

            await model.refresh().complete()

            #expect(model.title == "Weight in kg")
            #expect(model.rows.map(\.weight) == ["72.9", "72.6", "73.0"])
            #expect(model.rows[0].date == "Fri Nov 20, 2026  07:30")
            #expect(model.rows[0].change == "▲ 0.3")
            #expect(model.rows[0].isGood == false)
            #expect(model.rows[1].change == "▼ 0.4")
            #expect(model.rows[1].isGood == true)
            #expect(model.rows[2].change == "")
            #expect(model.rows.allSatisfy { !$0.isNew })
        }
    }

    @Test(arguments: ServiceFactory.all)
    func aReadingFromAnotherConnectionShowsAfterRefresh(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, scale, model) = try await scaleWorld(world)
            try await world.weigh(72.4, at: "2026-11-19 07:30", device: scale, on: service)
            await model.refresh().complete()
            #expect(model.rows.map(\.weight) == ["72.4"])

            // Another process (here another connection to the same file) adds a reading.
            let other = try await world.signedIn()
            try await world.weigh(71.8, at: "2026-11-20 07:45", device: scale, on: other)
            #expect(model.rows.map(\.weight) == ["72.4"], "nothing changes before a refresh")

            await model.refresh().complete()
            #expect(model.rows.map(\.weight) == ["71.8", "72.4"])
            #expect(model.rows[0].isNew)
            #expect(!model.rows[1].isNew)
            #expect(model.problem == nil)
        }
    }

    @Test(arguments: ServiceFactory.all)
    func theUnitKeySwitchesBetweenKilogramsAndPounds(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, scale, model) = try await scaleWorld(world)
            try await world.weigh(72.4, at: "2026-11-20 07:30", device: scale, on: service)
            await model.refresh().complete()

            let saving = model.toggleUnit()
            #expect(model.title == "Weight in lb", "the screen switches at once")
            #expect(model.rows.first?.weight == "159.6")
            #expect(model.summary.first?.text == "trend 159.6 lb")
            await saving.complete()
            #expect(try await service.profile().massUnit == .lb, "u is the profile's unit: kept for every screen and launch")
            await model.refresh().complete()
            #expect(model.title == "Weight in lb", "a reload keeps it")

            await model.toggleUnit().complete()
            #expect(model.title == "Weight in kg")
            #expect(model.rows.first?.weight == "72.4")
            #expect(try await service.profile().massUnit == .kg)
        }
    }

    /// Issue 11: the lb prompt's error speaks lb ("2000 lb is outside 2–1,433 lb"), not "907.18 kg".
    @Test func aWeightOutsideTheRangeIsRefusedInTheUnitTyped() async throws {
        let world = try ViewModelWorld()
        let (service, scale, model) = try await scaleWorld(world)
        var profile = try await service.profile()
        profile.massUnit = .lb
        try await service.updateProfile(profile)
        await model.refresh().complete()
        model.openPrompt()
        for c in "2000" { model.promptType(c) }
        await model.submitPrompt().complete()
        #expect(model.problem == "weight 2000 lb is outside 2–1,433 lb: check the number and its unit")
        #expect(model.prompt != nil, "the prompt stays open to fix it")
        #expect(try await service.lastMessages(device: scale.id, count: 1, field: Field.weight).isEmpty)
    }

    @Test(arguments: ServiceFactory.all)
    func aProfileThatPrefersPoundsOpensInPounds(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, scale, _) = try await scaleWorld(world)
            let manifest = try await service.manifest(ofType: scale.dtid)
            let model = WeightsModel(service: service, device: scale, manifest: manifest, preferred: .lb, clock: world.clock)
            #expect(model.title == "Weight in lb")
        }
    }

    @Test(arguments: ServiceFactory.all)
    func scrollingPastTheLastRowLoadsOlderReadings(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, scale, model) = try await scaleWorld(world)
            let start = ViewModelWorld.date("2026-10-01 07:00")
            for i in 0..<45 {
                let when = start.addingTimeInterval(Double(i) * 86_400)
                try await service.post(NewMessage(sdid: scale.id, ts: when.millisecondsSince1970,
                                                  data: [Field.weight: .number(80 - Double(i) * 0.1)]))
            }
            await model.refresh().complete()
            #expect(model.rows.count == 20)
            #expect(model.rows.first?.weight == "75.6")

            await model.moveSelection(by: 19).complete()
            #expect(model.selectedIndex == 19)
            #expect(model.rows.count == 20, "no page is loaded before the last row is passed")

            await model.moveSelection(by: 1).complete()
            #expect(model.rows.count == 40)
            #expect(model.selectedIndex == 20)
            #expect(model.rows[20].weight == "77.6")
            #expect(model.rows[19].change == "▼ 0.1", "the change bridges the pages")

            await model.moveSelection(by: 20).complete()
            #expect(model.rows.count == 45)
            #expect(!model.hasOlder)
            #expect(model.rows.last?.weight == "80.0")
            #expect(Set(model.rows.map(\.id)).count == 45, "no reading twice")
        }
    }

    /// R asks again for the newest rows loaded, but never for more than one screen call may list (the
    /// server refuses more): past that, the rows scrolled through stay, and nothing is lost or doubled.
    @Test(arguments: ServiceFactory.all)
    func aRefreshPastTheListLimitKeepsTheOlderRows(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let scale = try await world.device("Withings Device", named: "Bathroom scale", on: service)
            let model = WeightsModel(service: service, device: scale, manifest: try await service.manifest(ofType: scale.dtid),
                                     preferred: nil, clock: world.clock, listLimit: 30)
            let start = ViewModelWorld.date("2026-10-01 07:00")
            for i in 0..<45 {
                try await service.post(NewMessage(sdid: scale.id, ts: start.addingTimeInterval(Double(i) * 86_400).millisecondsSince1970,
                                                  data: [Field.weight: .number(80 - Double(i) * 0.1)]))
            }
            await model.refresh().complete()
            await model.moveSelection(by: 20).complete()
            #expect(model.rows.count == 40, "two pages scrolled through, past the limit of 30")

            try await world.weigh(70.0, at: "2026-11-16 07:30", device: scale, on: service)
            await model.refresh().complete()
            #expect(model.problem == nil)
            #expect(model.rows.count == 41, "the newest 30 asked again, the 11 older ones kept")
            #expect(model.rows.first?.weight == "70.0")
            #expect(model.rows.last?.weight == "79.5")
            #expect(Set(model.rows.map(\.id)).count == 41, "no reading twice")
            #expect(model.hasOlder)

            await model.moveToOldest().complete()
            #expect(model.rows.count == 46, "the older rows still page in after them")
            #expect(model.rows.last?.weight == "80.0")
            #expect(!model.hasOlder)
        }
    }

    @Test(arguments: ServiceFactory.all)
    func addingAReadingUsesTheCommandLinesValidation(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (_, _, model) = try await scaleWorld(world)
            await model.refresh().complete()

            model.openPrompt()
            for character in "700" { model.promptType(character) }
            await model.submitPrompt().complete()
            let problem = try require(model.problem, "700 kg is refused")
            #expect(problem.contains("1") && problem.contains("650"), "names the range: \(problem)")
            #expect(model.prompt != nil, "the prompt stays open to fix the value")
            #expect(model.rows.isEmpty)

            model.cancelPrompt()
            model.openPrompt()
            for character in "heavy" { model.promptType(character) }
            await model.submitPrompt().complete()
            #expect(model.problem?.contains("not a number") == true)

            model.cancelPrompt()
            model.openPrompt()
            for character in "72.1" { model.promptType(character) }
            await model.submitPrompt().complete()
            #expect(model.prompt == nil)
            #expect(model.problem == nil)
            #expect(model.rows.first?.weight == "72.1")
        }
    }

    @Test(arguments: ServiceFactory.all)
    func theSummaryGivesTheTrendItsWeeklyRateAndTheImpliedBalance(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, scale, model) = try await scaleWorld(world)
            try await world.weigh(74.0, at: "2026-11-01 07:30", device: scale, on: service)
            try await world.weigh(73.0, at: "2026-11-13 07:30", device: scale, on: service)
            try await world.weigh(72.2, at: "2026-11-20 07:30", device: scale, on: service)
            await model.refresh().complete()

            // Twenty days: 74 → 73 interpolated over 12 days, then 73 → 72.2 over 7, each day's trend 10 %
            // toward that day's weight: 72.994 on Nov 20. The least-squares slope of the last 14 days of
            // trend is −0.0659 kg/day: −0.461 kg/week, × 7,700 = −507 kcal/day.
            #expect(model.summary.map(\.text) == ["trend 73.0 kg", "▼ 0.46 kg/week", "−507 kcal/day"])
            #expect(model.summary[1].isGood == true)
            let chart = try require(model.chart, "a chart")
            // Twenty days of weigh-ins in a 90-day span: the time axis fits them (issue 28, item 1).
            #expect(chart.period == "20 days, Nov 1 – Nov 20")
            #expect(chart.weighIns.map(\.y) == [74.0, 73.0, 72.2])
            #expect(chart.trend.count == 20)
            #expect(chart.weighIns.first?.x == 0, "the first weigh-in starts the time axis")
            #expect(chart.low == 72.2 && chart.high == 74.0, "the axis covers the weigh-ins and the trend")
        }
    }

    @Test func theSpanKeysWalkThroughThirtyDaysNinetyDaysAYearAndAll() async throws {
        try await ViewModelWorld.run(.local) { world in
            let (service, scale, model) = try await scaleWorld(world)
            try await world.weigh(74.0, at: "2026-09-01 07:30", device: scale, on: service)
            try await world.weigh(72.2, at: "2026-11-20 07:30", device: scale, on: service)
            await model.refresh().complete()
            #expect(model.chart?.weighIns.count == 2)
            await model.shorterSpan().complete()
            #expect(model.span == .days30)
            #expect(model.chart?.period == "30 days, Oct 22 – Nov 20")
            #expect(model.chart?.weighIns.count == 1, "September is outside the last 30 days")
            await model.longerSpan().complete()
            await model.longerSpan().complete()
            await model.longerSpan().complete()
            #expect(model.span == .all)
            #expect(model.chart?.period == "all, Sep 1 – Nov 20")
            await model.longerSpan().complete()
            #expect(model.span == .all)
        }
    }

    @Test(arguments: ServiceFactory.all)
    func theTableIsOneHistoryFromEveryScaleWithItsSource(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let home = try await world.device("Withings Device", named: "Home", on: service)
            let gym = try await world.device("Withings Device", named: "Gym", on: service)
            let manifest = try await service.manifest(ofType: home.dtid)
            let model = WeightsModel(service: service, device: home, manifest: manifest, preferred: nil, clock: world.clock,
                                     scales: [home, gym])
            try await world.weigh(73.0, at: "2026-11-18 07:30", device: home, on: service)
            try await world.weigh(72.4, at: "2026-11-19 19:00", device: gym, on: service)
            try await world.weigh(72.9, at: "2026-11-20 07:30", device: home, on: service)
            await model.refresh().complete()

            #expect(model.subtitle == "all scales")
            #expect(model.rows.map(\.weight) == ["72.9", "72.4", "73.0"], "newest weigh-in first, whichever scale")
            #expect(model.rows.map(\.source) == ["Home", "Gym", "Home"])
            #expect(model.rows[0].change == "▲ 0.5", "the change is from the previous weigh-in, on the other scale")
            #expect(model.chart?.weighIns.map(\.y) == [73.0, 72.4, 72.9], "the chart has the same readings")

            await model.nextFilter().complete()
            #expect(model.subtitle == "Home")
            #expect(model.rows.map(\.weight) == ["72.9", "73.0"])
            #expect(model.rows.allSatisfy { !$0.isNew }, "another scale's readings are not news")
            #expect(model.chart?.weighIns.count == 3, "the chart stays the person's")
            await model.nextFilter().complete()
            #expect(model.subtitle == "Gym")
            #expect(model.rows.map(\.weight) == ["72.4"])
            await model.nextFilter().complete()
            #expect(model.showsAside && model.rows.isEmpty, "then the weigh-ins kept aside: none came by two ways here")
            await model.nextFilter().complete()
            #expect(model.subtitle == "all scales")
            #expect(model.rows.count == 3)
        }
    }

    @Test func olderPagesMergeEveryScaleNewestFirst() async throws {
        try await ViewModelWorld.run(.local) { world in
            let service = try await world.signedIn()
            let home = try await world.device("Withings Device", named: "Home", on: service)
            let gym = try await world.device("Withings Device", named: "Gym", on: service)
            let manifest = try await service.manifest(ofType: home.dtid)
            // 30 days: Home in the mornings, Gym in the evenings; 60 readings in all.
            for day in 1...30 {
                try await world.weigh(70 + Double(day) / 100, at: String(format: "2026-10-%02d 07:00", day), device: home, on: service)
                try await world.weigh(71 + Double(day) / 100, at: String(format: "2026-10-%02d 19:00", day), device: gym, on: service)
            }
            let model = WeightsModel(service: service, device: home, manifest: manifest, preferred: nil, clock: world.clock,
                                     scales: [home, gym])
            await model.refresh().complete()
            #expect(model.rows.count == WeightsModel.pageSize)
            await model.loadOlder().complete()
            await model.loadOlder().complete()
            #expect(model.rows.count == 60)
            #expect(!model.hasOlder)
            #expect(model.rows.first?.source == "Gym")
            #expect(model.rows.last?.source == "Home")
            let sources = model.rows.map(\.source)
            #expect(zip(sources, sources.dropFirst()).allSatisfy { $0 != $1 }, "evening and morning alternate all the way down")
        }
    }
}
