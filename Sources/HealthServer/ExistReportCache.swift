import Foundation
import HealthCore
import HealthModel

/// The insights report of each user, kept while the store is unchanged and the day is the same: a client
/// paging through correlations or insights asks for the same report once per page, and computing it reads
/// over a year of days.
///
/// `@unchecked Sendable`: the dictionary is only touched under `lock`.
final class ExistReportCache: @unchecked Sendable {
    private struct Entry {
        var changeToken: Int64?
        var today: Day
        var report: InsightsReport
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Past this many users the cache starts over rather than grow.
    private let capacity = 100

    /// The report of `service`'s user as of `now`: the kept one when nothing was committed since, else a new one.
    func report(service: LocalHealthService, now: Date, calendar: Calendar) async throws -> InsightsReport {
        guard let userID = service.userID else { throw HealthError.notSignedIn }
        let today = Day(now, in: calendar)
        // Read before computing, so a commit landing meanwhile makes the entry stale, never the reverse. The
        // token is the whole store's: any user's commit changes it.
        let token = try await service.changeToken()
        if let entry = lock.withLock({ entries[userID] }), entry.changeToken == token, entry.today == today {
            return entry.report
        }
        let report = try await service.insightsReport(now: now, calendar: calendar)
        // Computing may keep day sums (a commit of its own): the token after it is the one to match next time.
        let after = try await service.changeToken()
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[userID] = Entry(changeToken: after, today: today, report: report)
        }
        return report
    }
}
