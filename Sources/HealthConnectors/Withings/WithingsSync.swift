import Foundation
import HealthCore
import HealthModel

/// What one fetch of a link did, for the server's log and the poll route's answer.
public struct WithingsFetch: Sendable, Equatable {
    public var linkID: String
    public var added: Int
    public var alreadyThere: Int
    public var skipped: [String]
    /// Measure groups refused for a date outside the window or a figure no reading may hold (named in `skipped`).
    public var refused = 0
    /// Why the link was not read (not authorized yet, refused by Withings); nil when it was.
    public var problem: String?
}

/// Reads the new weigh-ins of every Withings link into the store: refreshes the tokens when they expire
/// (keeping the rotated refresh token), asks `getmeas` for what changed since the last fetch, and stores
/// each kept measure group once, as one reading on the person's scale (`WithingsWeighIns.mid`).
///
/// One link is read (or subscribed) at a time, whatever asks (the poll, a notification, a dashboard's R):
/// two refreshes with one refresh token would leave the second with a token Withings already replaced, and
/// two reads of the link's file would each save over the other's. An actor alone does not ensure that (it
/// lets another call in at every `await`), so its calls also take turns (`oneAtATime`).
public actor WithingsSync {
    /// Which links there are; the weigh-ins themselves go through each person's service.
    public nonisolated let links: any PushLinkStore
    private let services: UserServices
    public nonisolated let api: WithingsAPI
    public nonisolated let files: WithingsLinkFiles
    private let clock: @Sendable () -> Date

    /// Whether a call holds the turn, and the calls waiting for it, first come first served.
    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Per link, the fetch asked by a notification that waits for its turn (`schedule`).
    private var queued: [String: Task<WithingsFetch, Never>] = [:]

    /// A token this close to its expiry is refreshed before use.
    static let refreshMargin: TimeInterval = 60

    public init(links: any PushLinkStore, services: UserServices, api: WithingsAPI, files: WithingsLinkFiles,
                clock: @escaping @Sendable () -> Date = Date.init) {
        self.links = links
        self.services = services
        self.api = api
        self.files = files
        self.clock = clock
    }

    /// The ids of the store's Withings links.
    public func linkIDs() async throws -> [String] {
        try await links.pushLinks().filter { $0.kind == .withings }.map(\.id)
    }

    /// Fetches every link; one link's failure does not stop the others.
    public func fetchAll() async throws -> [WithingsFetch] {
        var fetches: [WithingsFetch] = []
        for id in try await linkIDs() { fetches.append(await fetch(linkID: id)) }
        return fetches
    }

    /// Fetches the links of one user (after a notification names them), or of everyone with nil.
    public func fetch(userID: String?) async throws -> [WithingsFetch] {
        var fetches: [WithingsFetch] = []
        for id in try await linkIDs() {
            guard let link = try files.load(linkID: id), userID == nil || link.userID == userID else { continue }
            fetches.append(await fetch(linkID: id))
        }
        return fetches
    }

    /// Fetches one link's new weigh-ins; a problem is reported in the answer, not thrown.
    public func fetch(linkID: String) async -> WithingsFetch {
        await oneAtATime { await fetchNow(linkID: linkID) }
    }

    /// Asks for a fetch of one link, as a notification does, and returns once the ask is taken: the fetch
    /// itself is `task`, and `isNew` says whether this ask made it. While a fetch of the link waits for its
    /// turn, a new ask joins it, so 50 notifications in a burst bring one fetch running and one more after it
    /// (which reads what the 49 announced), not 50. `fetched` (of the ask that made the fetch) runs with the
    /// outcome before the next call takes its turn, so what it logs comes before anything read after.
    public func schedule(linkID: String, fetched: @escaping @Sendable (WithingsFetch) -> Void = { _ in })
        -> (task: Task<WithingsFetch, Never>, isNew: Bool) {
        if let waiting = queued[linkID] { return (waiting, false) }
        let task = Task { await self.fetchQueued(linkID: linkID, fetched: fetched) }
        queued[linkID] = task
        return (task, true)
    }

    private func fetchQueued(linkID: String, fetched: @Sendable (WithingsFetch) -> Void) async -> WithingsFetch {
        await oneAtATime {
            // Running from here on: an ask that comes now may have news this fetch already missed, so it waits anew.
            queued[linkID] = nil
            let outcome = await fetchNow(linkID: linkID)
            fetched(outcome)
            return outcome
        }
    }

    private func fetchNow(linkID: String) async -> WithingsFetch {
        var outcome = WithingsFetch(linkID: linkID, added: 0, alreadyThere: 0, skipped: [], problem: nil)
        do {
            guard var link = try files.load(linkID: linkID) else {
                outcome.problem = "its file is missing: make the link again with `hmon link add withings`"
                return outcome
            }
            guard link.tokens != nil else {
                outcome.problem = "not authorized yet: finish `hmon link add withings` (open the link it printed)"
                return outcome
            }
            let (api, since) = (self.api, link.lastUpdate)
            let fetched = try await withFreshToken(&link) { token in try await api.measureGroups(accessToken: token, lastUpdate: since) }
            let weighIns = WithingsWeighIns(fetched.groups, now: clock())
            let added = try await save(weighIns, userID: link.userID)
            outcome.added = added
            outcome.alreadyThere = weighIns.weighIns.count - added
            outcome.skipped = weighIns.skippedText
            outcome.refused = weighIns.refusedGroups
            if let updateTime = fetched.updateTime { link.lastUpdate = updateTime }
            try files.save(link)
        } catch let error as WithingsError {
            outcome.problem = error.isInvalidToken
                ? "Withings no longer accepts its tokens (\(error)): make the link again with `hmon link add withings`"
                : error.description
        } catch let error as HealthError {
            outcome.problem = error.message
        } catch {
            outcome.problem = "cannot reach Withings: \(TextRules.replacingUnsafe(in: String(describing: error).prefix(200).description).0)"
        }
        return outcome
    }

    /// Subscribes every authorized link to notifications at `callbackURL(link)` (once per URL).
    public func subscribeAll(callbackURL: @Sendable (WithingsLink) -> String?) async throws -> [(linkID: String, problem: String?)] {
        var results: [(linkID: String, problem: String?)] = []
        for id in try await linkIDs() {
            let problem: String?? = try await oneAtATime {
                guard var link = try files.load(linkID: id), link.tokens != nil, let url = callbackURL(link), link.subscribedURL != url else {
                    return nil
                }
                do {
                    let api = self.api
                    try await withFreshToken(&link) { token in try await api.subscribe(accessToken: token, callbackURL: url) }
                    link.subscribedURL = url
                    try files.save(link)
                    return .some(nil)
                } catch {
                    return .some(String(describing: error))
                }
            }
            if let problem { results.append((id, problem)) }
        }
        return results
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
    /// more when Withings answers 401 anyway. Every refresh is saved at once: the old refresh token is dead.
    private func withFreshToken<T>(_ link: inout WithingsLink, _ call: (String) async throws -> T) async throws -> T {
        guard var tokens = link.tokens else { throw WithingsError(action: "the call", status: 401, message: "not authorized") }
        if tokens.expiresAt.timeIntervalSince(clock()) < Self.refreshMargin {
            tokens = try await refreshed(&link, tokens)
        }
        do {
            return try await call(tokens.accessToken)
        } catch let error as WithingsError where error.isInvalidToken {
            tokens = try await refreshed(&link, tokens)
            return try await call(tokens.accessToken)
        }
    }

    private func refreshed(_ link: inout WithingsLink, _ tokens: WithingsTokens) async throws -> WithingsTokens {
        let fresh = try await api.refresh(tokens, clientID: link.clientID, clientSecret: link.clientSecret, now: clock())
        link.tokens = fresh
        try files.save(link)
        return fresh
    }

    /// Stores the weigh-ins on the person's scale; returns how many were new.
    private func save(_ weighIns: WithingsWeighIns, userID: String) async throws -> Int {
        guard !weighIns.weighIns.isEmpty else { return 0 }
        let service = services.service(for: userID)
        let scale = try await Self.scale(of: service)
        let messages = weighIns.weighIns.map { NewMessage(sdid: scale.id, ts: $0.timestamp, data: $0.data) }
        let mids = weighIns.weighIns.map { WithingsWeighIns.mid(userID: userID, grpid: $0.grpid, timestamp: $0.timestamp) }
        return try await service.postBatch(messages, mids: mids, now: clock())
    }

    /// The person's scale, as an import finds it: their oldest Withings or generic scale, else a new "Scale".
    static func scale(of service: LocalHealthService) async throws -> Device {
        let scaleTypes = [BuiltInDeviceType.withings, .scale].map(\.deviceType.id)
        let scales = try await service.devices().enumerated()
            .filter { scaleTypes.contains($0.element.dtid) }
            .sorted { ($0.element.createdOn, $0.offset) < ($1.element.createdOn, $1.offset) }
        if let oldest = scales.first { return oldest.element }
        return try await service.addDevice(name: "Scale", typeID: BuiltInDeviceType.scale.deviceType.id)
    }
}
