import Foundation
import HealthCore
import HealthModel
import Synchronization

/// Tells open dashboards that their user's data may have changed (`GET /v1.1/hmon/changes`).
///
/// One per server process, however many dashboards are connected: each subscriber is an `AsyncStream` that
/// its route's response writer waits on, so an idle dashboard costs a suspended task and nothing else.
/// News comes from two places:
/// - a write through this server (`ChangeFeedMiddleware`): the token's user is known, so only that user's
///   dashboards hear of it, at once;
/// - a write by anyone else on PostgreSQL (another server, the command line): the store announces each
///   committed write with whose data it changed (`AnnouncingStore`, `LISTEN`/`NOTIFY`), and only that user's
///   dashboards hear of it;
/// - a write by anyone else on SQLite (`hmon add` on the same file), or on PostgreSQL while the listening
///   connection is lost: one watcher reads the store's change token every `watchInterval` (100 ms) while
///   anyone subscribes, and when it moved wakes every subscriber, since a change token does not say whose
///   data changed.
/// A task of its own sends every subscriber a heartbeat each `heartbeat` (15 s by default), which keeps
/// proxies from closing an idle stream and lets the client notice a dead connection; it asks the store
/// nothing, so the heartbeats go on while the database is down (the watcher's reads then fail, or wait).
/// The watcher ends the streams
/// whose token no longer works (`FeedCredential`): expired ones at its next look, and once the change token
/// moved (any revocation, sign-out or password change, by whichever process, is a commit) those the store no
/// longer knows, looked up at most every `credentialCheckInterval`.
final class ChangeFeed: Sendable {
    /// What a subscriber's stream carries.
    enum Message: Sendable, Equatable {
        /// `kinds` nil: what changed is not known.
        case change(token: Int64, kinds: Set<ChangeKind>?)
        case heartbeat
    }

    enum Subscription: Sendable {
        case open(id: UInt64, messages: AsyncStream<Message>)
        /// The user already has `maxPerUser` streams open.
        case full
    }

    private struct Subscriber {
        let userID: String
        let credential: FeedCredential
        let continuation: AsyncStream<Message>.Continuation
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        /// The newest change token told to subscribers (or seen when the watcher started).
        var lastToken: Int64?
        /// Writes through this server under way: the watcher's reads meanwhile are set aside, so that a write
        /// whose user is known is told to that user only, not to everyone by the watcher.
        var writesInFlight = 0
        /// Counts writes started, so a watcher read that overlapped one is recognised and set aside too.
        var writeGeneration: UInt64 = 0
        var watcher: Task<Void, Never>?
        /// Sends the heartbeats, while anyone subscribes.
        var heartbeater: Task<Void, Never>?
        /// Listens to the store's announcements (PostgreSQL), while anyone subscribes.
        var listener: Task<Void, Never>?
        /// Whether the announcements are heard now: then the watcher does not read the change token.
        var listening = false
        /// Per user, the newest change token a write through this server told their dashboards: the
        /// store's announcement of that same write is not told again.
        var toldByUs: [String: Int64] = [:]
        /// Announcements heard while writes of ours were under way: told when they end, unless one of them
        /// told the same user of a token at least as new.
        var pending: [StoreAnnouncement] = []
        /// The change token when the subscribers' tokens were last looked up in the store; nil: look again.
        var credentialsCheckedAt: Int64?
        /// Counts subscriptions, so a lookup that overlapped one does not count as having checked it.
        var subscriptions: UInt64 = 0
    }

    let store: any StoreIdentity & TokenStore
    let heartbeat: Duration
    let watchInterval: Duration
    let maxPerUser: Int
    /// The time tokens expire by (the server's clock, which tests move).
    let clock: @Sendable () -> Date
    /// The least time between two lookups of the subscribers' tokens: under a stream of writes the
    /// store is asked once per interval, not at every change.
    let credentialCheckInterval: Duration
    private let state = Mutex(State())

    init(store: any StoreIdentity & TokenStore, heartbeat: Duration, watchInterval: Duration = .milliseconds(100), maxPerUser: Int,
         clock: @escaping @Sendable () -> Date = Date.init, credentialCheckInterval: Duration = .milliseconds(250)) {
        self.store = store
        self.heartbeat = heartbeat
        self.watchInterval = watchInterval
        self.maxPerUser = maxPerUser
        self.clock = clock
        self.credentialCheckInterval = credentialCheckInterval
    }

    /// Streams open now (tests, and the benchmark's check that all its dashboards are connected).
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A new stream for `userID`'s dashboard, opened with `credential`; `unsubscribe` it when the dashboard goes.
    func subscribe(userID: String, credential: FeedCredential) -> Subscription {
        let (messages, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .bufferingNewest(8))
        let outcome: Subscription = state.withLock { state in
            let open = state.subscribers.values.lazy.filter { $0.userID == userID }.count
            guard open < maxPerUser else { return .full }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = Subscriber(userID: userID, credential: credential, continuation: continuation)
            // Its token was checked before the newest lookup may have been made: the next look checks it.
            state.credentialsCheckedAt = nil
            state.subscriptions &+= 1
            if state.watcher == nil {
                state.watcher = Task { [weak self] in await self?.watch() }
                state.heartbeater = Task { [weak self] in await self?.beat() }
                if let announcing = store as? any AnnouncingStore {
                    let news = announcing.news()
                    state.listener = Task { [weak self] in await self?.listen(to: news) }
                }
            }
            return .open(id: id, messages: messages)
        }
        if case .full = outcome { continuation.finish() }
        return outcome
    }

    /// A heartbeat now to each of `userID`'s streams. A dashboard that went away is noticed only when its
    /// stream is written to: its writer then fails and unsubscribes it.
    func sendHeartbeat(to userID: String) {
        let continuations = state.withLock { $0.subscribers.values.filter { $0.userID == userID }.map(\.continuation) }
        for continuation in continuations { continuation.yield(.heartbeat) }
    }

    /// The token a new stream's first event told: the baseline when nobody was subscribed, so a change
    /// between that read and the watcher's first one is not missed.
    func told(token: Int64) {
        state.withLock { state in
            if state.lastToken == nil { state.lastToken = token }
        }
    }

    func unsubscribe(_ id: UInt64) {
        let gone = state.withLock { state -> Subscriber? in
            let gone = state.subscribers.removeValue(forKey: id)
            if state.subscribers.isEmpty {
                state.watcher?.cancel()
                state.watcher = nil
                state.heartbeater?.cancel()
                state.heartbeater = nil
                state.listener?.cancel()
                state.listener = nil
                state.listening = false
                state.toldByUs = [:]
                state.pending = []
                // Nobody watched meanwhile: the next subscriber's first event sets the baseline again.
                state.lastToken = nil
            }
            return gone
        }
        gone?.continuation.finish()
    }

    // MARK: Writes through this server

    /// A request that may write has started (any method but GET and HEAD).
    func writeStarted() {
        state.withLock { state in
            state.writesInFlight += 1
            state.writeGeneration &+= 1
        }
    }

    /// Who hears of a write through this server.
    enum Audience: Sendable {
        /// The user whose data it wrote.
        case user(String)
        /// Whoever it was for is not known (a scale bridge's client token): everyone, if anything was written.
        case everyone
        /// Nobody: it wrote no one's readings (a sign-in, a token refresh).
        case nobody
    }

    /// The request has been answered. Its user hears of it when it succeeded or the token moved; with no
    /// user known, everyone hears when the token moved.
    func writeFinished(for audience: Audience, kinds: Set<ChangeKind>?, succeeded: Bool) async {
        let token = try? await store.changeToken()
        let (told, toldKinds, heldBack) = state.withLock { state -> ([AsyncStream<Message>.Continuation], Set<ChangeKind>?, [StoreAnnouncement]) in
            state.writesInFlight -= 1
            var kinds = kinds
            var told: [AsyncStream<Message>.Continuation] = []
            if !state.subscribers.isEmpty, let token {
                let moved = token != state.lastToken
                if moved { state.lastToken = max(state.lastToken ?? token, token) }
                switch audience {
                case .nobody:
                    break
                case .everyone:
                    if moved { told = state.subscribers.values.map(\.continuation) }
                case .user(let userID) where moved || succeeded:
                    // The announcements of this user's writes up to ours are told with ours, once.
                    for announcement in state.pending where announcement.userID == userID && announcement.token <= token {
                        kinds = kinds.flatMap { ours in announcement.kinds.map { ours.union($0) } }
                    }
                    state.pending.removeAll { $0.userID == userID && $0.token <= token }
                    state.toldByUs[userID] = max(state.toldByUs[userID] ?? token, token)
                    told = state.subscribers.values.filter { $0.userID == userID }.map(\.continuation)
                case .user:
                    break
                }
            }
            var heldBack: [StoreAnnouncement] = []
            if state.writesInFlight == 0 { swap(&heldBack, &state.pending) }
            return (told, kinds, heldBack)
        }
        if let token { for continuation in told { continuation.yield(.change(token: token, kinds: toldKinds)) } }
        for announcement in heldBack { await deliver(announcement) }
    }

    // MARK: The store's announcements

    /// Hands each announcement to the dashboards of the user it names, for as long as anyone subscribes.
    private func listen(to news: AsyncStream<StoreNews>) async {
        for await item in news {
            switch item {
            case .deaf:
                state.withLock { $0.listening = false }
            case .listening(let token):
                // Deaf meanwhile: a write since the last token told may have gone unheard, so everyone looks.
                let (missed, lookUp) = state.withLock { state -> ([AsyncStream<Message>.Continuation], Bool) in
                    state.listening = true
                    guard let last = state.lastToken else {
                        // Heard before the watcher's first look: a revocation committed before the store was
                        // heard would go unnoticed (nothing reads the token while announcements come), so the
                        // subscribers' tokens are looked up once now.
                        state.lastToken = token
                        state.credentialsCheckedAt = nil
                        return ([], true)
                    }
                    guard last < token, state.writesInFlight == 0 else { return ([], false) }
                    state.lastToken = token
                    state.credentialsCheckedAt = nil
                    return (state.subscribers.values.map(\.continuation), true)
                }
                for continuation in missed { continuation.yield(.change(token: token, kinds: nil)) }
                if lookUp { _ = await endStreamsOfUnknownTokens(storeToken: token) }
            case .announced(let announcement):
                await deliver(announcement)
            }
        }
    }

    /// Tells the announced user's dashboards, unless a write through this server already told them of it
    /// (or is about to: then it waits for that write to end).
    private func deliver(_ announcement: StoreAnnouncement) async {
        let told = state.withLock { state -> [AsyncStream<Message>.Continuation] in
            state.lastToken = max(state.lastToken ?? announcement.token, announcement.token)
            if announcement.credentials { state.credentialsCheckedAt = nil }
            guard let userID = announcement.userID else { return [] }
            if state.writesInFlight > 0 {
                state.pending.append(announcement)
                return []
            }
            if let ours = state.toldByUs[userID], ours >= announcement.token { return [] }
            return state.subscribers.values.filter { $0.userID == userID }.map(\.continuation)
        }
        for continuation in told { continuation.yield(.change(token: announcement.token, kinds: announcement.kinds)) }
        if announcement.credentials { _ = await endStreamsOfUnknownTokens(storeToken: announcement.token) }
    }

    // MARK: The watcher

    /// While anyone subscribes: the store's token every `watchInterval`, the subscribers' tokens when it
    /// moved (at most every `credentialCheckInterval`).
    private func watch() async {
        let clock = ContinuousClock()
        var nextCredentialCheck = clock.now
        while !Task.isCancelled {
            do { try await clock.sleep(for: watchInterval) } catch { return }
            // While the store's announcements are heard, they say what changed: no read of the change token,
            // except to look the tokens up again after a lookup the store could not answer.
            let heard = state.withLock { ($0.listening, $0.credentialsCheckedAt == nil ? $0.lastToken : nil) }
            let token = heard.0 ? heard.1 : await lookAtStore()
            endExpiredStreams()
            if let token, clock.now >= nextCredentialCheck, await endStreamsOfUnknownTokens(storeToken: token) {
                nextCredentialCheck = clock.now + credentialCheckInterval
            }
        }
    }

    /// While anyone subscribes: a heartbeat to every subscriber each `heartbeat`. Apart from the watcher, whose
    /// reads of the store may wait or fail while the database is down: a dashboard whose heartbeats stopped
    /// would call its server dead when only the database was.
    private func beat() async {
        let clock = ContinuousClock()
        var next = clock.now + heartbeat
        while !Task.isCancelled {
            do { try await clock.sleep(until: next) } catch { return }
            next = clock.now + heartbeat
            for continuation in state.withLock({ $0.subscribers.values.map(\.continuation) }) {
                continuation.yield(.heartbeat)
            }
        }
    }

    /// Tells every subscriber when another process wrote; returns the change token read (nil if unread).
    private func lookAtStore() async -> Int64? {
        let before = state.withLock { ($0.writesInFlight, $0.writeGeneration) }
        // Read even while writes of ours are under way: the token lookups need it.
        guard let token = try? await store.changeToken() else { return nil }
        guard before.0 == 0 else { return token }
        let told: [AsyncStream<Message>.Continuation] = state.withLock { state in
            // A write of ours started or ran meanwhile: it tells its own user when it ends.
            guard state.writesInFlight == 0, state.writeGeneration == before.1 else { return [] }
            defer { state.lastToken = token }
            guard let last = state.lastToken, last != token else { return [] }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in told { continuation.yield(.change(token: token, kinds: nil)) }
        return token
    }

    // MARK: Tokens that stopped working

    /// Ends the streams whose token has expired: no lookup needed.
    private func endExpiredStreams() {
        let now = clock()
        end { $0.hasExpired(at: now) }
    }

    /// When the store changed since the last lookup, looks up each distinct token of the subscribers and
    /// ends the streams of those the store no longer knows. Returns whether it looked.
    private func endStreamsOfUnknownTokens(storeToken: Int64) async -> Bool {
        let looked: (credentials: Set<FeedCredential>, subscriptions: UInt64)? = state.withLock { state in
            guard state.credentialsCheckedAt != storeToken else { return nil }
            return (Set(state.subscribers.values.map(\.credential)), state.subscriptions)
        }
        guard let (credentials, subscriptions) = looked else { return false }
        let now = clock()
        var unknown = Set<FeedCredential>()
        var undecided = false
        for credential in credentials {
            switch await credential.isKnown(to: store, now: now) {
            case false?: unknown.insert(credential)
            case true?: break
            case nil: undecided = true
            }
        }
        // A lookup the store could not answer is tried again at the next look.
        state.withLock { state in
            if !undecided, state.subscriptions == subscriptions { state.credentialsCheckedAt = storeToken }
        }
        if !unknown.isEmpty { end { unknown.contains($0) } }
        return true
    }

    /// Ends (and forgets) the streams whose credential `matches`: their routes' answers end with them.
    private func end(where matches: (FeedCredential) -> Bool) {
        let ended: [AsyncStream<Message>.Continuation] = state.withLock { state in
            let ids = state.subscribers.filter { matches($0.value.credential) }.map(\.key)
            return ids.compactMap { state.subscribers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ended { continuation.finish() }
    }
}
