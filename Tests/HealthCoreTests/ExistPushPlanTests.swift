import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import RemoteClient

/// What `hmon exist push` sends for each day, and how long it waits after a 429, on hand-worked cases.
@Suite struct ExistPushPlanTests {
    static let first = Day(year: 2026, month: 1, day: 1)

    static func daily(_ entries: [(Int, [String: FieldValue])], through last: Int) -> DailyAttributes {
        var totals: [Day: DayTotals] = [:]
        for (offset, data) in entries { totals[first.adding(days: offset), default: DayTotals()].add(data) }
        return DailyAttributes.build(totals: totals, days: first...first.adding(days: last), profile: Profile(),
                                     calendar: DailyAttributesTests.utc)
    }

    @Test func aWeightEveryDayCarriedUpTo30DaysAndEnergyInKilojoules() {
        // Day 0: 80.0 and 81.3 → 80.65. Day 1 to 30 carry it; day 31 has none. Day 40: 79.9.
        // Day 2: 25 % body fat → 0.25; 2000 kcal eaten → 8368 kJ; 312.5 kcal active → 1307.5 kJ; RMSSD 41.6 → 42 ms.
        let daily = Self.daily([
            (0, [Field.weight: .number(80)]), (0, [Field.weight: .number(81.3)]),
            (2, [Field.fatRatio: .number(25), Field.calories: .number(2000), Field.activeEnergy: .number(312.5)]),
            (2, [Field.rmssd: .number(41.6)]),
            (40, [Field.weight: .number(79.9)]),
        ], through: 40)
        let values = ExistPushPlan.values(daily, days: Self.first...Self.first.adding(days: 40))
        func value(_ a: InsightAttribute, _ offset: Int) -> Double? {
            values.first { $0.attribute == a && $0.day == Self.first.adding(days: offset) }?.value
        }
        #expect(value(.weight, 0) == 80.65)
        #expect(value(.weight, 30) == 80.65, "carried 30 days")
        #expect(value(.weight, 31) == nil, "not after 30 days without a weigh-in")
        #expect(value(.weight, 40) == 79.9)
        #expect(values.filter { $0.attribute == .weight }.count == 32)
        #expect(value(.bodyFat, 2) == 0.25)
        #expect(value(.energy, 2) == 8368)
        #expect(value(.activeEnergy, 2) == 1307.5)
        #expect(value(.heartRateVariability, 2) == 42, "an integer attribute is sent whole")
        #expect(!values.contains { $0.attribute == .stress || $0.attribute == .steps }, "stress and steps are not pushed")
        // Day by day, in the plan's attribute order.
        #expect(values.prefix(1).map(\.attribute) == [.weight])
    }

    @Test func onlyValuesNotSentOrChangedSinceGoAgain() {
        let daily = Self.daily([(0, [Field.weight: .number(80)]), (3, [Field.weight: .number(79)])], through: 4)
        let values = ExistPushPlan.values(daily, days: Self.first...Self.first.adding(days: 4))
        let sent = ["weight": [Self.first.description: 80.0, Self.first.adding(days: 1).description: 80.0,
                               Self.first.adding(days: 3).description: 80.0]]
        // Day 0 and 1 unchanged; day 2 never sent; day 3 changed (80 → 79); day 4 never sent.
        #expect(ExistPushPlan.changed(values, sent: sent).map(\.day) == [2, 3, 4].map { Self.first.adding(days: $0) })
    }

    @Test func aRateLimitedAnswerSaysHowLongToWait() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func reply(_ headers: [String: String]) -> HTTPReply { HTTPReply(status: 429, headers: headers, body: Data()) }
        #expect(ExistPusher.retryDelay(reply(["Retry-After": "17"]), now: now) == 17)
        // Exist: seconds until the hour's window resets.
        #expect(ExistPusher.retryDelay(reply(["X-RateLimit-Reset": "1200"]), now: now) == 1200)
        // hmon: the epoch seconds the minute's and the day's windows end; the minute's comes first.
        #expect(ExistPusher.retryDelay(reply(["X-Rate-Limit-Reset": "1800000042/1800028800"]), now: now) == 42)
        #expect(ExistPusher.retryDelay(reply([:]), now: now) == 60, "a minute when nothing says")
        #expect(ExistPusher.retryDelay(reply(["Retry-After": "0"]), now: now) == 1)
    }
}
