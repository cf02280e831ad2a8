import Foundation
import HealthCore
import HealthModel

/// The insights report of each user, kept while the store is unchanged and the day is the same: a client
/// paging through correlations or insights asks for the same report once per page, and computing it reads
/// over a year of days. Kept by `TokenKeyedCache`'s rule: under the token read before computing, so a commit
/// landing during the computation shows at the next page, not at the next commit after it.
final class ExistReportCache: Sendable {
    private struct Key: Hashable, Sendable {
        var userID: String
        var today: Day
    }

    /// Past this many users (and days) the cache starts over rather than grow.
    private let cache = TokenKeyedCache<Key, InsightsReport>(capacity: 100)

    /// The report of `service`'s user as of `now`: the kept one when nothing was committed since, else a new one.
    func report(service: LocalHealthService, now: Date, calendar: Calendar) async throws -> InsightsReport {
        try await report(service: service, now: now, calendar: calendar) {
            try await service.insightsReport(now: now, calendar: calendar)
        }
    }

    /// `report(service:now:calendar:)` with the computation given (a test makes a commit land during it).
    func report(service: LocalHealthService, now: Date, calendar: Calendar,
                computing compute: @escaping @Sendable () async throws -> InsightsReport) async throws -> InsightsReport {
        guard let userID = service.userID else { throw HealthError.notSignedIn }
        // The token is the whole store's: any user's commit changes it. A store without one keeps nothing.
        guard let token = try await service.changeToken() else { return try await compute() }
        return try await cache.value(for: Key(userID: userID, today: Day(now, in: calendar)), token: token, compute: compute)
    }
}
