import Foundation
import HealthCore
import HealthModel

/// Reads every link of one pulled source into the store: refreshes the tokens when they expire (keeping
/// the replaced refresh token), asks the source what is new since the link's last read, and stores it
/// (`PulledSource.read`, `keep`).
///
/// One link is read (or subscribed) at a time, whatever asks (the poll, a notification, a dashboard's R):
/// two refreshes with one refresh token would leave the second with a token the source already replaced,
/// and two reads of the link's file would each save over the other's. An actor alone does not ensure that
/// (it lets another call in at every `await`), so its calls also take turns (`oneAtATime`).
public actor PulledSync<Source: PulledSource> {
    public typealias Link = Source.Link
    public typealias Fetch = Source.Fetch

    /// Which links there are; the readings themselves go through each person's service.
    public nonisolated let links: any PushLinkStore
    let services: UserServices
    public nonisolated let api: Source
    public nonisolated let files: PulledLinkFiles<Link>
    let clock: @Sendable () -> Date

    /// Whether a call holds the turn, and the calls waiting for it, first come first served.
    private var isBusy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Per link, the read a notification asked for that waits for its turn (`schedule`).
    private var queued: [String: Task<Fetch, Never>] = [:]

    /// A token this close to its expiry is refreshed before use.
    static var refreshMargin: TimeInterval { 60 }

    public init(links: any PushLinkStore, services: UserServices, api: Source, files: PulledLinkFiles<Link>,
                clock: @escaping @Sendable () -> Date = Date.init) {
        self.links = links
        self.services = services
        self.api = api
        self.files = files
        self.clock = clock
    }

    /// The ids of the store's links of this source.
    public func linkIDs() async throws -> [String] {
        try await links.pushLinks().filter { $0.kind == Source.linkKind }.map(\.id)
    }

    /// Reads every link; one link's failure does not stop the others.
    public func fetchAll() async throws -> [Fetch] {
        var fetches: [Fetch] = []
        for id in try await linkIDs() { fetches.append(await fetch(linkID: id)) }
        return fetches
    }

    /// Reads the links of one user (a dashboard's R, or a notification naming them), or of everyone with nil.
    public func fetch(userID: String?) async throws -> [Fetch] {
        var fetches: [Fetch] = []
        for id in try await linkIDs() {
            guard let link = try files.load(linkID: id), userID == nil || link.userID == userID else { continue }
            fetches.append(await fetch(linkID: id))
        }
        return fetches
    }

    /// Reads one link; a problem is reported in the answer, not thrown.
    public func fetch(linkID: String) async -> Fetch {
        await oneAtATime { await fetchNow(linkID: linkID) }
    }

    /// Asks for a read of one link, as a notification does, and returns once the ask is taken: the read
    /// itself is `task`, and `isNew` says whether this ask made it. While a read of the link waits for its
    /// turn, a new ask joins it, so 50 notifications in a burst bring one read running and one more after it
    /// (which reads what the 49 announced), not 50. `fetched` (of the ask that made the read) runs with the
    /// outcome before the next call takes its turn, so what it logs comes before anything read after.
    public func schedule(linkID: String, fetched: @escaping @Sendable (Fetch) -> Void = { _ in })
        -> (task: Task<Fetch, Never>, isNew: Bool) {
        if let waiting = queued[linkID] { return (waiting, false) }
        let task = Task { await self.fetchQueued(linkID: linkID, fetched: fetched) }
        queued[linkID] = task
        return (task, true)
    }

    private func fetchQueued(linkID: String, fetched: @Sendable (Fetch) -> Void) async -> Fetch {
        await oneAtATime {
            // Running from here on: an ask that comes now may have news this read already missed, so it waits anew.
            queued[linkID] = nil
            let outcome = await fetchNow(linkID: linkID)
            fetched(outcome)
            return outcome
        }
    }

    /// Reads the link and notes what came for the sync doctor (whose own failure is not the read's).
    private func fetchNow(linkID: String) async -> Fetch {
        let outcome = await read(linkID: linkID)
        try? await links.noteArrival(outcome.arrival, linkID: linkID, at: clock())
        return outcome
    }

    private func read(linkID: String) async -> Fetch {
        var outcome = Fetch(linkID: linkID)
        do {
            guard var link = try files.load(linkID: linkID) else {
                outcome.problem = "its file is missing: make the link again with `hmon link add \(Link.kindName)`"
                return outcome
            }
            guard link.tokens != nil else {
                outcome.problem = "not authorized yet: finish `hmon link add \(Link.kindName)` (open the link it printed)"
                return outcome
            }
            let (api, asked, now) = (self.api, link, clock())
            let batch = try await withFreshToken(&link) { token in try await api.read(asked, accessToken: token, now: now) }
            try await api.keep(batch, link: &link, service: services.service(for: link.userID), now: clock(), outcome: &outcome)
            try files.save(link)
        } catch let error as Source.Refusal {
            outcome.problem = error.tokensNoLongerAccepted
                ? "\(Link.sourceName) no longer accepts its tokens (\(error)): make the link again with `hmon link add \(Link.kindName)`"
                : error.description
        } catch let error as HealthError {
            outcome.problem = error.message
        } catch {
            outcome.problem = Self.unreachable(error)
        }
        return outcome
    }

    /// A failure to reach the source at all (no answer, a broken connection), made safe to print.
    static func unreachable(_ error: any Error) -> String {
        "cannot reach \(Link.sourceName): \(TextRules.replacingUnsafe(in: String(describing: error).prefix(200).description).text)"
    }

    /// Runs `body` on the file of each of the source's links that is authorized, one link at a time in
    /// turn with every read, and saves the file when `body` answers (nil: nothing to do, nothing saved).
    func eachAuthorizedLink<Result: Sendable>(_ body: (inout Link) async throws -> Result?) async throws -> [(linkID: String, result: Result)] {
        var results: [(linkID: String, result: Result)] = []
        for id in try await linkIDs() {
            let result: Result? = try await oneAtATime {
                guard var link = try files.load(linkID: id), link.tokens != nil, let result = try await body(&link) else { return nil }
                try files.save(link)
                return result
            }
            if let result { results.append((id, result)) }
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
    /// more when the source answers 401 anyway. Every refresh is saved at once: the old refresh token is spent.
    func withFreshToken<T>(_ link: inout Link, _ call: (String) async throws -> T) async throws -> T {
        guard var tokens = link.tokens else { throw Source.Refusal.notAuthorized }
        if tokens.expiresAt.timeIntervalSince(clock()) < Self.refreshMargin {
            tokens = try await refreshed(&link, tokens)
        }
        do {
            return try await call(tokens.accessToken)
        } catch let error as Source.Refusal where error.isInvalidToken {
            tokens = try await refreshed(&link, tokens)
            return try await call(tokens.accessToken)
        }
    }

    private func refreshed(_ link: inout Link, _ tokens: Link.Tokens) async throws -> Link.Tokens {
        let fresh = try await api.refresh(tokens, clientID: link.clientID, clientSecret: link.clientSecret, now: clock())
        link.tokens = fresh
        try files.save(link)
        return fresh
    }
}
