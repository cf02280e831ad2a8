import Foundation
import HealthCore
import HealthModel

/// What one pull of an Oura link brought: the sleep and daily readiness documents of the days asked, and
/// the last of those days.
public struct OuraBatch: Sendable {
    public var sleep: [OuraSleep]
    public var readiness: [OuraDailyReadiness]
    /// Today, as the server's UTC date: the next pull starts a few days before it.
    public var through: Day
}

/// Oura as a pulled source: a pull asks for the sleep and daily readiness documents of the days since the
/// last one, and stores each night and each day's readiness once (`OuraArrival`).
extension OuraAPI: PulledSource {
    public typealias Link = OuraLink
    public typealias Refusal = OuraError
    public typealias Fetch = OuraFetch
    public typealias Batch = OuraBatch

    public static var defaultPollInterval: Duration { .seconds(60 * 60) }

    /// Days read at the first pull of a link.
    static let firstPullDays = 30
    /// Days before the last one read that each pull reads again: Oura completes a night's figures after the
    /// ring syncs, sometimes a day or two late.
    static let rereadDays = 3

    /// The server's days for the pull window: UTC, widened a day each way (`rereadDays`, tomorrow).
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    public func read(_ link: OuraLink, accessToken: String, now: Date) async throws -> OuraBatch {
        let today = Day(now, in: Self.utc)
        let from = link.readThrough.map { $0.adding(days: -Self.rereadDays) } ?? today.adding(days: -Self.firstPullDays)
        // Tomorrow too: a ring east of UTC is a day ahead of this server's UTC date.
        let to = today.adding(days: 1)
        return OuraBatch(sleep: try await sleep(accessToken: accessToken, from: from, to: to),
                         readiness: try await dailyReadiness(accessToken: accessToken, from: from, to: to), through: today)
    }

    public func keep(_ batch: OuraBatch, link: inout OuraLink, service: LocalHealthService, now: Date, outcome: inout OuraFetch) async throws {
        let (nights, readiness) = (OuraNights(batch.sleep), OuraReadinessDays(batch.readiness))
        let tally = try await OuraArrival.store(nights.readings + readiness.readings, service: service, userID: link.userID, now: now)
        outcome.added = tally.added
        outcome.alreadyThere = tally.alreadyThere
        outcome.changed = tally.changed
        outcome.skipped = nights.skippedText + readiness.skippedText + tally.refused.map { "skipped \($0)" }
        outcome.refused = tally.refused.count
        link.readThrough = batch.through
    }
}

extension OuraError: PulledRefusal {
    /// A refused token request (a refresh Oura no longer takes) says so too, whatever its status.
    public var tokensNoLongerAccepted: Bool { isInvalidToken || action == "the token request" }
    public static var notAuthorized: OuraError { OuraError(action: "the call", status: 401, message: "not authorized") }
}

extension OuraTokens: PulledTokens {}

extension PushLinkKind {
    /// An Oura ring (`GET|POST /oura/SECRET`): the OAuth callback, Oura's check of a webhook subscription and
    /// its notifications. Its client secret and tokens are in an `OuraLinkFile`, not in the store.
    public static var oura: PushLinkKind { OuraAPI.linkKind }
}
