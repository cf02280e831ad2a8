import Foundation
import HealthCore
import HealthModel

/// Reads what a rule needs from the store, for its person, and judges it (`AlertChecks`). Reads only.
public struct AlertEvaluation: Sendable {
    private let store: any HealthStore
    private let calendar: Calendar

    public init(store: any HealthStore, calendar: Calendar) {
        self.store = store
        self.calendar = calendar
    }

    public struct UnknownUser: Error, CustomStringConvertible {
        public var description: String
    }

    /// The person a rule is about: the one it names, or the store's only user.
    public func user(of rule: AlertRule) async throws -> User {
        if let name = rule.user {
            guard let user = try await store.user(named: name) else {
                throw UnknownUser(description: "alert \(rule.name): no user \(name) in the store (user = \"\(name)\")")
            }
            return user
        }
        let users = try await store.users()
        guard users.count == 1, let only = users.first else {
            throw UnknownUser(description: "alert \(rule.name): the store has \(users.count) users: say whose data it watches, like user = \"ana\"")
        }
        return only
    }

    /// The rule's finding now, nil while its condition does not hold.
    public func finding(of rule: AlertRule, for user: User, now: Date) async throws -> AlertFinding? {
        let today = Day(now, in: calendar)
        let service = LocalHealthService(store: store, userID: user.id)
        switch rule.condition {
        case .hrvBelowNormal(let days):
            // The 60-day range before a week that may start up to `days` + a fresh margin before today.
            let from = today.adding(days: -(HRVBaseline.windowDays + 7 + days + AlertChecks.freshDays)).start(in: calendar)
            let query = ReadingsQuery(from: from.millisecondsSince1970, to: now.millisecondsSince1970, field: Field.rmssd, order: .asc)
            let measurements = try await store.readings(query, userID: user.id)
                .compactMap { m in m.data[Field.rmssd]?.number.map { (date: m.date, rmssdMs: $0) } }
            return AlertChecks.hrvBelowNormal(days: days, measurements: measurements, today: today, calendar: calendar)
        case .restingHeartRateAbove(let bpm, let days):
            let totals = try await service.dailyTotals(days: today.adding(days: -(30 + days + AlertChecks.freshDays))...today, calendar: calendar)
            let daily = totals.compactMapValues { $0[.restingHeartRate].mean }
            return AlertChecks.restingHeartRateAbove(bpm: bpm, days: days, daily: daily, today: today)
        case .weightGoalReached:
            let profile = try await store.profile(userID: user.id)
            let series = try await service.weightSeries(days: today.adding(days: -90)...today, calendar: calendar)
            return AlertChecks.weightGoalReached(goalKg: profile.goalKg, trend: WeightTrendBuilder.days(series: series), today: today,
                                                 text: QuantityText(profile))
        case .linkSilent(let hours, let linkID):
            let links = try await store.linkHealth(sinceDay: LinkHealth.day(of: now))
                .filter { $0.link.userName == user.name && (linkID == nil || $0.link.id == linkID) }
                .map { (id: $0.link.id, kind: $0.link.kind.rawValue, since: $0.lastArrivalAt ?? $0.link.createdAt) }
            return AlertChecks.linkSilent(hours: hours, links: links, now: now)
        }
    }
}
