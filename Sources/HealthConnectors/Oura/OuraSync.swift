import Foundation
import HealthCore
import HealthModel

/// What one pull of a link did, for the server's log and the poll route's answer.
public struct OuraFetch: Sendable, Equatable {
    public var linkID: String
    public var added = 0
    public var alreadyThere = 0
    public var changed = 0
    public var skipped: [String] = []
    /// Why the link was not read (not authorized yet, refused by Oura, an answer not as documented); nil when it was.
    public var problem: String?

    public init(linkID: String) { self.linkID = linkID }
}

/// What keeping one link's webhook subscriptions did.
public struct OuraSubscribing: Sendable, Equatable {
    public var linkID: String
    public var made = 0
    public var renewed = 0
    public var problems: [String] = []
}

/// Reads the nights of every Oura link into the store: refreshes the tokens when they expire (keeping the
/// replaced refresh token), asks for the sleep documents of the days since the last pull, and stores each
/// night once (`OuraArrival`). Keeps each link's webhook subscriptions, renewed before they expire.
///
/// One link is read (or subscribed) at a time, whatever asks (the poll, a notification, a dashboard's R),
/// for the reasons `WithingsSync` gives: a refresh token works once, and two saves of a link's file would
/// each overwrite the other's. The actor's calls take turns (`oneAtATime`).
public actor OuraSync {
    public nonisolated let links: any PushLinkStore
    private let services: UserServices
    public nonisolated let api: OuraAPI
    public nonisolated let files: OuraLinkFiles
    private let clock: @Sendable () -> Date

    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Per link, the pull a notification asked for that waits for its turn (`schedule`).
    private var queued: [String: Task<OuraFetch, Never>] = [:]

    /// A token this close to its expiry is refreshed before use.
    static let refreshMargin: TimeInterval = 60
    /// A subscription with less than this left is renewed: two days, so a server down for a day still renews in time.
    public static let renewMargin: TimeInterval = 2 * 24 * 3600
    /// Days read at the first pull of a link.
    static let firstPullDays = 30
    /// Days before the last one read that each pull reads again: Oura completes a night's figures after the
    /// ring syncs, sometimes a day or two late.
    static let rereadDays = 3
    /// What hmon subscribes to: a sleep document made or changed.
    static let subscribedEvents = [(event: "create", data: "sleep"), (event: "update", data: "sleep")]

    /// The server's days for the pull window: UTC, widened a day each way (`rereadDays`, tomorrow).
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    public init(links: any PushLinkStore, services: UserServices, api: OuraAPI, files: OuraLinkFiles,
                clock: @escaping @Sendable () -> Date = Date.init) {
        self.links = links
        self.services = services
        self.api = api
        self.files = files
        self.clock = clock
    }

    /// The ids of the store's Oura links.
    public func linkIDs() async throws -> [String] {
        try await links.pushLinks().filter { $0.kind == .oura }.map(\.id)
    }

    /// Pulls every link; one link's failure does not stop the others.
    public func fetchAll() async throws -> [OuraFetch] {
        var fetches: [OuraFetch] = []
        for id in try await linkIDs() { fetches.append(await fetch(linkID: id)) }
        return fetches
    }

    /// Pulls the links of one user (the dashboard's R).
    public func fetch(userID: String) async throws -> [OuraFetch] {
        var fetches: [OuraFetch] = []
        for id in try await linkIDs() {
            guard let link = try files.load(linkID: id), link.userID == userID else { continue }
            fetches.append(await fetch(linkID: id))
        }
        return fetches
    }

    /// Pulls one link's nights; a problem is reported in the answer, not thrown.
    public func fetch(linkID: String) async -> OuraFetch {
        await oneAtATime { await fetchNow(linkID: linkID) }
    }

    /// Asks for a pull of one link, as a notification does, and returns once the ask is taken. While a pull
    /// of the link waits for its turn, a new ask joins it (`WithingsSync.schedule`), so a burst of
    /// notifications brings one pull running and one after it, not one each.
    public func schedule(linkID: String, fetched: @escaping @Sendable (OuraFetch) -> Void = { _ in }) -> Task<OuraFetch, Never> {
        if let waiting = queued[linkID] { return waiting }
        let task = Task { await self.fetchQueued(linkID: linkID, fetched: fetched) }
        queued[linkID] = task
        return task
    }

    private func fetchQueued(linkID: String, fetched: @Sendable (OuraFetch) -> Void) async -> OuraFetch {
        await oneAtATime {
            // Running from here on: an ask that comes now may have news this pull already missed, so it waits anew.
            queued[linkID] = nil
            let outcome = await fetchNow(linkID: linkID)
            fetched(outcome)
            return outcome
        }
    }

    private func fetchNow(linkID: String) async -> OuraFetch {
        var outcome = OuraFetch(linkID: linkID)
        do {
            guard var link = try files.load(linkID: linkID) else {
                outcome.problem = "its file is missing: make the link again with `hmon link add oura`"
                return outcome
            }
            guard link.tokens != nil else {
                outcome.problem = "not authorized yet: finish `hmon link add oura` (open the link it printed)"
                return outcome
            }
            let today = Day(clock(), in: Self.utc)
            let from = link.readThrough.map { $0.adding(days: -Self.rereadDays) } ?? today.adding(days: -Self.firstPullDays)
            // Tomorrow too: a ring east of UTC is a day ahead of this server's UTC date.
            let (api, to) = (self.api, today.adding(days: 1))
            let documents = try await withFreshToken(&link) { token in try await api.sleep(accessToken: token, from: from, to: to) }
            let nights = OuraNights(documents)
            let tally = try await OuraArrival.store(nights.readings, service: services.service(for: link.userID), userID: link.userID, now: clock())
            outcome.added = tally.added
            outcome.alreadyThere = tally.alreadyThere
            outcome.changed = tally.changed
            outcome.skipped = nights.skippedText
            link.readThrough = today
            try files.save(link)
        } catch let error as OuraError {
            outcome.problem = error.isInvalidToken || error.action == "the token request"
                ? "Oura no longer accepts its tokens (\(error)): make the link again with `hmon link add oura`"
                : error.description
        } catch let error as HealthError {
            outcome.problem = error.message
        } catch {
            outcome.problem = "cannot reach Oura: \(TextRules.replacingUnsafe(in: String(describing: error).prefix(200).description).text)"
        }
        return outcome
    }

    /// Keeps every authorized link subscribed at `callbackURL(link)`: a subscription to each sleep event
    /// made when missing (or expired, or for another URL), renewed when it expires within `renewMargin`.
    public func subscribeAll(callbackURL: @Sendable (OuraLink) -> String?) async throws -> [OuraSubscribing] {
        var results: [OuraSubscribing] = []
        for id in try await linkIDs() {
            let result: OuraSubscribing? = try await oneAtATime {
                guard var link = try files.load(linkID: id), link.tokens != nil, let url = callbackURL(link) else { return nil }
                let result = await keepSubscribed(&link, at: url)
                try files.save(link)
                return result
            }
            if let result, result.made + result.renewed > 0 || !result.problems.isEmpty { results.append(result) }
        }
        return results
    }

    private func keepSubscribed(_ link: inout OuraLink, at url: String) async -> OuraSubscribing {
        var result = OuraSubscribing(linkID: link.linkID)
        let now = clock()
        var kept: [OuraSubscription] = []
        // One Oura no longer holds (expired) or for another address is made anew below.
        for subscription in link.subscriptions where subscription.callbackURL == url && subscription.expiresAt > now {
            guard subscription.expiresAt.timeIntervalSince(now) < Self.renewMargin else {
                kept.append(subscription)
                continue
            }
            do {
                kept.append(try await api.renew(subscription, clientID: link.clientID, clientSecret: link.clientSecret))
                result.renewed += 1
            } catch let error as OuraError where error.status == 404 {
                result.problems.append("\(error); subscribing again")
            } catch {
                kept.append(subscription)
                result.problems.append(Self.words(error))
            }
        }
        for wanted in Self.subscribedEvents where !kept.contains(where: { $0.eventType == wanted.event && $0.dataType == wanted.data }) {
            do {
                kept.append(try await api.subscribe(clientID: link.clientID, clientSecret: link.clientSecret, callbackURL: url,
                                                    verificationToken: link.verificationToken, eventType: wanted.event, dataType: wanted.data))
                result.made += 1
            } catch {
                result.problems.append(Self.words(error))
            }
        }
        link.subscriptions = kept
        return result
    }

    private static func words(_ error: any Error) -> String {
        if let error = error as? OuraError { return error.description }
        return "cannot reach Oura: \(TextRules.replacingUnsafe(in: String(describing: error).prefix(200).description).text)"
    }

    /// Runs `body` when no other call of this sync is running one: calls take turns in the order they came.
    private func oneAtATime<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        while isBusy { await withCheckedContinuation { waiting.append($0) } }
        isBusy = true
        defer {
            isBusy = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        return try await body()
    }

    /// Runs `call` with a valid access token: refreshed first when it expires within a minute, and once
    /// more when Oura answers 401 anyway. Every refresh is saved at once: the old refresh token is spent.
    private func withFreshToken<T>(_ link: inout OuraLink, _ call: (String) async throws -> T) async throws -> T {
        guard var tokens = link.tokens else { throw OuraError(action: "the call", status: 401, message: "not authorized") }
        if tokens.expiresAt.timeIntervalSince(clock()) < Self.refreshMargin {
            tokens = try await refreshed(&link, tokens)
        }
        do {
            return try await call(tokens.accessToken)
        } catch let error as OuraError where error.isInvalidToken {
            tokens = try await refreshed(&link, tokens)
            return try await call(tokens.accessToken)
        }
    }

    private func refreshed(_ link: inout OuraLink, _ tokens: OuraTokens) async throws -> OuraTokens {
        let fresh = try await api.refresh(tokens, clientID: link.clientID, clientSecret: link.clientSecret, now: clock())
        link.tokens = fresh
        try files.save(link)
        return fresh
    }
}
