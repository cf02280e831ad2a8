import Foundation
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// A second launch of the demo later the same day adds what has happened since the first, drawn as the
/// first launch drew the day: the same meals, never a second lunch.
@Suite struct DemoSameDayTests {
    /// Today's food log of the demo at `url`, each meal as a person reads it: time, kcal and name.
    static func meals(_ store: LocalStore, on day: Day, in cal: Calendar) async throws -> [String] {
        let service = LocalHealthService(store: store)
        try await service.actingAs(name: "demo")
        let food = try #require(try await service.devices().first { $0.name == "Food log" })
        return try await service.lastMessages(device: food.id, count: 1000, field: nil)
            .filter { Day($0.date, in: cal) == day }
            .sorted { $0.ts < $1.ts }
            .map { "\($0.ts) \($0.data[Field.calories].map { "\($0)" } ?? "") \($0.data[Field.comments].map { "\($0)" } ?? "")" }
    }

    @Test func aSecondLaunchTheSameDayKeepsTheMealsOfTheFirst() async throws {
        let cal = calendar()
        let morning = date("2026-11-26 09:00"), afternoon = date("2026-11-26 13:45")
        let today = Day(afternoon, in: cal)

        let twice = try TemporaryFolder()
        let first = try await DemoData.openStore(at: twice.file("demo.sqlite"), now: morning, calendar: cal,
                                                 passwordHasher: .fastForTests)
        let breakfast = try await Self.meals(first, on: today, in: cal)
        let second = try await DemoData.openStore(at: twice.file("demo.sqlite"), now: afternoon, calendar: cal,
                                                  passwordHasher: .fastForTests)
        let launchedTwice = try await Self.meals(second, on: today, in: cal)

        let once = try TemporaryFolder()
        let launchedOnce = try await Self.meals(
            try await DemoData.openStore(at: once.file("demo.sqlite"), now: afternoon, calendar: cal, passwordHasher: .fastForTests),
            on: today, in: cal)

        #expect(breakfast.count == 1, "\(breakfast)")
        #expect(Array(launchedTwice.prefix(breakfast.count)) == breakfast, "the morning's meals stay as they were")
        #expect(launchedTwice == launchedOnce, "two launches make the day one launch makes")
        #expect(launchedTwice.count == 2, "breakfast and one lunch: \(launchedTwice)")
    }
}
