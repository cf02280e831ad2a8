import Foundation
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

@Suite struct DemoDataTests {
    @Test func theDemoAccountHasAProfileFiveDevicesAndHalfAYearOfWeighIns() async throws {
        let world = try TestWorld()
        let cal = calendar()
        let now = date("2026-11-20 15:00")
        try await DemoData.fill(world.store, now: now, calendar: cal)
        let service = LocalHealthService(store: world.store)
        _ = try await service.signIn(name: "demo", password: "demo")
        let user = try await service.currentUser()
        #expect(user.fullName == "Demo User")
        #expect(user.email == "demo@example.com")
        #expect(try await service.profile() == Profile(birthDate: Day(iso: "1988-04-12"), sex: .female, heightCm: 168, goalKg: 66))
        let devices = try await service.devices()
        #expect(devices.map(\.name) == ["Bathroom scale", "Watch", "Food log", "Welltory", "Watch (HRV Meter)"])

        let today = Day(now, in: cal)
        let series = try await service.weightSeries(days: today.adding(days: -179)...today, calendar: cal)
        let measured = series.points.filter { !$0.isCarried }
        #expect(measured.count > 140 && measured.count < 170)   // some gap days
        #expect(series.points.contains { $0.isCarried })
        #expect(series.points.contains { $0.readings == 2 })     // some days weighed twice
        #expect(series.points.allSatisfy { (60...80).contains($0.kg) })
        let first = try #require(measured.first), last = try #require(measured.last)
        #expect(first.kg > last.kg + 2)  // a slow loss

        let summary = try await service.energySummary(for: today, now: now, calendar: cal)
        #expect(summary.missing.isEmpty)
        #expect(summary.consumed > 0)
        #expect(summary.active > 0)
        let latest = try await service.lastMessages(device: devices[2].id, count: 100, field: nil)
        #expect(latest.allSatisfy { $0.ts <= now.millisecondsSince1970 })
    }

    @Test func theDemoHasAboutThreeMonthsOfHRVFromWelltoryAndFromBeats() async throws {
        let world = try TestWorld()
        let now = date("2026-11-20 15:00")
        try await DemoData.fill(world.store, now: now, calendar: calendar())
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: "demo")
        let devices = try await service.devices()
        let meter = try #require(devices.first { $0.name == "Welltory" })
        let watchMeter = try #require(devices.first { $0.name == "Watch (HRV Meter)" })
        let welltory = try await service.lastMessages(device: meter.id, count: 1000, field: nil)
        let beats = try await service.lastMessages(device: watchMeter.id, count: 1000, field: nil)
        let measurements = (welltory + beats).sorted { $0.ts > $1.ts }
        #expect(measurements.count > 70 && measurements.count <= 100)
        #expect(welltory.count > 20 && beats.count > 20)
        #expect(welltory.allSatisfy { $0.data[Field.source] == .text("welltory") })
        #expect(welltory.allSatisfy { $0.data[Field.shareToken] != nil && $0.data[Field.stressColor] != nil })
        // Issue 28, item 2: the watch's measurements carry Apple's SDNN beside hmon's figures, and one morning of
        // the last ten has a flat beat list, refused: Apple's SDNN alone, with the reason.
        let refused = beats.filter { $0.data[Field.beatsRefused] != nil }
        #expect(refused.count == 1 && refused.allSatisfy { $0.data[Field.rmssd] == nil && $0.data[Field.appleSDNN] != nil })
        #expect(beats.filter { $0.data[Field.beatsRefused] == nil }.allSatisfy {
            $0.data[Field.source] == .text("beats") && $0.data[Field.pnn50] != nil && $0.data[Field.stressIndex] != nil
                && $0.data[Field.appleSDNN] != nil
        })
        // As an Apple Health import keeps them: the watch's own SDNN beside each measurement from its beats.
        let watch = try #require(devices.first { $0.name == "Watch" })
        let sdnn = try await service.lastMessages(device: watch.id, count: 1000, field: Field.heartRateVariabilitySDNN)
        #expect(Set(sdnn.map(\.ts)) == Set(beats.map(\.ts)))
        let oldest = try #require(measurements.last)
        #expect(now.timeIntervalSince(oldest.date) > 80 * 86_400)
    }

    /// The Vitals screen has something to show in the demo: two weeks of the watch's vital signs, every sign
    /// among them, within their kinds' ranges, and a later opening adds the days since without repeating one.
    @Test func theDemoHasTwoWeeksOfVitalSignsOnTheWatch() async throws {
        let world = try TestWorld()
        let cal = calendar()
        let now = date("2026-11-20 15:00")
        try await DemoData.fill(world.store, now: now, calendar: cal)
        let service = LocalHealthService(store: world.store)
        try await service.actingAs(name: "demo")
        let screen = try await service.vitalsScreen(VitalsScreenData.Ask(latestCount: 100))
        let signs = Set(screen.readings.flatMap { VitalSign.signs(in: $0.data) })
        #expect(signs == Set(VitalSign.allCases))
        #expect(Set(screen.deviceNames.values) == ["Watch"])
        let days = Set(screen.readings.map { Day($0.date, in: cal) })
        #expect(days.count == 14 && days.max() == Day(now, in: cal))
        for reading in screen.readings {
            for (field, value) in reading.data {
                guard let kind = ReadingKind(field: field), let range = kind.range, let number = value.number else { continue }
                #expect(range.contains(number), "\(field) \(number)")
            }
        }
        let later = date("2026-11-22 09:00")
        try await DemoData.topUp(world.store, now: later, calendar: cal)
        let after = try await service.vitalsScreen(VitalsScreenData.Ask(latestCount: 100)).readings
        func onThe20th(_ readings: [Message]) -> Int { readings.filter { Day($0.date, in: cal) == Day(now, in: cal) }.count }
        #expect(onThe20th(after) == onThe20th(screen.readings), "the day already there is not added again")
        #expect(Set(after.map { Day($0.date, in: cal) }).contains(Day(year: 2026, month: 11, day: 22)))
    }

    @Test func theSameSeedAndTimeGiveTheSameReadings() async throws {
        let now = date("2026-11-20 15:00")
        var dumps: [[Message]] = []
        for _ in 0..<2 {
            let world = try TestWorld()
            try await DemoData.fill(world.store, now: now, calendar: calendar(), seed: 7)
            let service = LocalHealthService(store: world.store)
            try await service.actingAs(name: "demo")
            let scale = try #require(try await service.devices().first)
            dumps.append(try await service.lastMessages(device: scale.id, count: 1000, field: nil))
        }
        #expect(dumps[0] == dumps[1])
        #expect(dumps[0].count > 150)
    }

    @Test func openingTheDemoOnALaterDayAddsTheDaysSinceOnTheSameTrend() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("demo.sqlite")
        let cal = calendar()
        let first = date("2026-11-20 15:00")
        _ = try await DemoData.openStore(at: url, now: first, calendar: cal, passwordHasher: .fastForTests)
        let later = date("2026-11-23 09:30")
        let store = try await DemoData.openStore(at: url, now: later, calendar: cal, passwordHasher: .fastForTests)
        let service = LocalHealthService(store: store)
        try await service.actingAs(name: "demo")

        let today = try await service.energySummary(for: Day(later, in: cal), now: later, calendar: cal)
        #expect(today.consumed > 0)
        #expect(today.active > 0)
        let food = try #require(try await service.devices().first { $0.name == "Food log" })
        let meals = try await service.lastMessages(device: food.id, count: 1000, field: nil)
        #expect(meals.allSatisfy { $0.ts <= later.millisecondsSince1970 })
        let days = Set(meals.map { Day($0.date, in: cal) })
        for offset in 0...3 { #expect(days.contains(Day(year: 2026, month: 11, day: 20 + offset))) }
        let series = try await service.weightSeries(days: Day(year: 2026, month: 11, day: 10)...Day(year: 2026, month: 11, day: 23),
                                                    calendar: cal)
        #expect(series.points.allSatisfy { (65...75).contains($0.kg) })

        // Opening again the same minute adds nothing.
        #expect(try await DemoData.topUp(store, now: later, calendar: cal) == 0)
    }

    /// `hmon snapshot --demo` reads the demo store without writing when it has every reading up to now,
    /// and leaves a store with readings to add (or none at all) to `openStore` (issue 30, item 4).
    @Test func theDemoIsOpenedToReadOnlyWhenItHasNothingToAdd() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("demo.sqlite")
        let cal = calendar()
        let first = date("2026-11-20 15:00")
        #expect(await DemoData.openToRead(at: url, now: first, calendar: cal) == nil)  // not made yet
        // Made, then opened again at `first` as the next launch does.
        for _ in 0..<2 { _ = try await DemoData.openStore(at: url, now: first, calendar: cal, passwordHasher: .fastForTests) }

        let reader = try #require(await DemoData.openToRead(at: url, now: first, calendar: cal))
        #expect(reader.access == .readOnly)
        let service = LocalHealthService(store: reader)
        try await service.actingAs(name: "demo")
        #expect(try await service.devices().count == 5)

        // Three days on there are readings to add: left to `openStore`, which adds them.
        let later = date("2026-11-23 09:30")
        #expect(await DemoData.openToRead(at: url, now: later, calendar: cal) == nil)
        _ = try await DemoData.openStore(at: url, now: later, calendar: cal, passwordHasher: .fastForTests)
        #expect(await DemoData.openToRead(at: url, now: later, calendar: cal) != nil)
    }

    @Test func fillingTwiceIsRefused() async throws {
        let world = try TestWorld()
        try await DemoData.fill(world.store)
        await #expect(throws: HealthError.nameTaken("demo")) { try await DemoData.fill(world.store) }
    }
}
