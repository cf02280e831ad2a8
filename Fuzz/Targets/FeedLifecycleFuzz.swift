import Foundation
import HealthCore
import HealthModel
import HealthServer
import SQLiteStorage
import Synchronization

/// The change feed's life as its clients live it, in whatever order an input gives: dashboards open and drop
/// feeds, readings are posted, sign-ins are revoked or signed out, a password changes, the clock passes the
/// tokens' expiry, someone signs in again. A real server in this process, with two users and a cap of three
/// feeds each. Its promises, checked after every step:
/// - a feed opened with a working token starts (`ready`), or past the cap is refused 429; with a dead token
///   it is refused 401 (or, if a cache still took the token, ends as a dead token's feed does);
/// - a reading posted reaches every open feed of its user;
/// - a feed whose token stopped working ends within `endPatience`, and no other feed ends;
/// - no answer is a 5xx.
///
/// Each input byte is a step: its low three bits the action, the rest its argument (which user, which of the
/// user's three sign-ins, which feed).
final class FeedLifecycleFuzz: @unchecked Sendable {
    static let shared = FeedLifecycleFuzz()

    /// Generous for a sanitized build on a loaded machine, and for the corpus run inside a full parallel
    /// `swift test`, where the server's heartbeats share two cores with every other suite (a dropped feed's
    /// place was once still taken after 15 s there, and freed in 2 s alone); a passing input never waits for it.
    static let endPatience = 60.0
    static let feedsPerUser = 3
    /// Steps read from an input; the rest are ignored. A step may wait for the server (a dropped feed's place
    /// is freed at its next heartbeat), so this keeps an input within libFuzzer's `-timeout`.
    static let stepsPerInput = 12

    private struct SignIn {
        let token: String
        var works = true
    }

    private struct Feed {
        let socket: FeedSocket
        let user: Int
        /// The token it was opened with: a sign-in signed in again has a new one, and its old feeds keep theirs.
        let token: String
        /// Whether its token works as far as the harness knows: a dead token's feed must end.
        var mustEnd = false
    }

    private var server: RunningServer?
    private var store: LocalStore?
    private var port = 0
    private var userIDs: [String] = []
    private var scaleIDs: [String] = []
    /// The server's clock, which the steps move past the tokens' expiry.
    private let clock = FuzzClock()
    private var signIns: [[SignIn?]] = []
    private var feeds: [Feed] = []
    private var steps: [String] = []

    func prepare() throws {
        guard server == nil else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-fuzz-feeds-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clock = self.clock
        let started = ServerFuzz.blocking { () async throws -> (RunningServer, LocalStore, [String], [String]) in
            let store = try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
            var users: [String] = []
            var scales: [String] = []
            for name in ["alice", "bob"] {
                let user = try await store.createUser(NewAccount(name: name, password: "correct horse"))
                users.append(user.id)
                scales.append(try await store.addDevice(name: "Scale", typeID: BuiltInDeviceType.scale.deviceType.id, userID: user.id).id)
            }
            var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, rateLimit: nil, clock: { clock.now })
            // A heartbeat a second, so that feeds a step dropped are noticed soon and free their places.
            configuration.feedHeartbeat = .seconds(1)
            configuration.maxFeedsPerUser = Self.feedsPerUser
            return (try await RunningServer.start(store: store, configuration: configuration), store, users, scales)
        }
        let (server, store, users, scales) = try started.get()
        self.server = server
        self.store = store
        port = server.port
        userIDs = users
        scaleIDs = scales
    }

    func run(_ input: [UInt8]) throws(FuzzFinding) {
        // Each input starts with no feed open and no sign-in: what an earlier input left is dropped.
        feeds = []
        signIns = Array(repeating: Array(repeating: nil, count: 3), count: 2)
        steps = []
        for byte in input.prefix(Self.stepsPerInput) {
            let argument = Int(byte >> 3)
            let user = argument & 1
            let slot = (argument >> 1) % 3
            switch byte & 0x07 {
            case 0, 1: try open(user: user, slot: slot)
            case 2: drop(feed: argument >> 1)
            case 3: try post(user: user)
            case 4: try revoke(user: user, slot: slot, path: "PUT /revokeAccessToken")
            case 5: try revoke(user: user, slot: slot, path: "GET /logout")
            case 6: try (argument & 2 == 0 ? changePassword(user: user) : passExpiry())
            default:
                steps.append("user \(user) signs in again as sign-in \(slot)")
                try signIn(user: user, slot: slot)
            }
            try checkFeeds()
        }
    }

    // MARK: Steps

    private func open(user: Int, slot: Int) throws(FuzzFinding) {
        let signIn: SignIn
        if let known = signIns[user][slot] { signIn = known } else { signIn = try self.signIn(user: user, slot: slot) }
        steps.append("open a feed of user \(user) with sign-in \(slot)\(signIn.works ? "" : " (no longer working)")")
        let openOfUser = feeds.filter { $0.user == user && !$0.mustEnd }.count
        // Past the cap the server may still be noticing feeds dropped a moment ago: a dashboard tries again.
        let tryUntil = Date().addingTimeInterval(Self.endPatience)
        while true {
            let socket: FeedSocket
            do { socket = try FeedSocket(port: port, token: signIn.token) } catch {
                throw finding("cannot connect: \(error)")
            }
            guard socket.wait(seconds: Self.endPatience, until: { $0.ended || $0.count(of: "event: ready") > 0 || ($0.status ?? 200) != 200 }) else {
                throw finding("no answer to opening a feed within \(Self.endPatience) s")
            }
            let status = socket.status
            if let status, status >= 500 { throw finding("a feed's opening was answered \(status)") }
            if !signIn.works {
                guard status == 401 || status == 200 else { throw finding("a dead token's feed was answered \(status.map(String.init) ?? "nothing")") }
                if status == 200 { feeds.append(Feed(socket: socket, user: user, token: signIn.token, mustEnd: true)) }
                return
            }
            if status == 200 {
                guard openOfUser < Self.feedsPerUser else { throw finding("a feed past the cap of \(Self.feedsPerUser) was opened") }
                feeds.append(Feed(socket: socket, user: user, token: signIn.token))
                return
            }
            guard status == 429 else { throw finding("a working token's feed was answered \(status.map(String.init) ?? "nothing")") }
            if openOfUser >= Self.feedsPerUser { return }
            guard Date() < tryUntil else { throw finding("refused 429 with \(openOfUser) of \(Self.feedsPerUser) feeds open") }
        }
    }

    private func drop(feed index: Int) {
        guard !feeds.isEmpty else { return }
        let dropped = feeds.remove(at: index % feeds.count)
        steps.append("drop a feed of user \(dropped.user)")
    }

    private func post(user: Int) throws(FuzzFinding) {
        steps.append("post a reading for user \(user)")
        let token = try issueToken(user: user)
        let body = #"{"sdid":"\#(scaleIDs[user])","data":{"weight":72.4}}"#
        let told = feeds.indices.filter { feeds[$0].user == user && !feeds[$0].mustEnd }
        let before = told.map { feeds[$0].socket.count(of: "event: change") }
        let answer = try exchange("POST /v1.1/messages", token: token, body: body)
        guard answer == 200 else { throw finding("posting a reading was answered \(answer)") }
        for (index, count) in zip(told, before) {
            guard feeds[index].socket.wait(seconds: Self.endPatience, until: { $0.ended || $0.count(of: "event: change") > count }),
                  !feeds[index].socket.ended else {
                throw finding("an open feed of user \(user) did not hear of the reading")
            }
        }
    }

    private func revoke(user: Int, slot: Int, path: String) throws(FuzzFinding) {
        guard let signIn = signIns[user][slot] else { return }
        steps.append("\(path) for user \(user)'s sign-in \(slot)")
        let answer = try exchange(path, token: signIn.token, body: nil)
        guard answer < 500 else { throw finding("\(path) was answered \(answer)") }
        if signIn.works && answer != 200 { throw finding("\(path) of a working token was answered \(answer)") }
        signIns[user][slot]?.works = false
        endFeeds { $0.token == signIn.token }
    }

    private func changePassword(user: Int) throws(FuzzFinding) {
        steps.append("change user \(user)'s password")
        guard let store else { return }
        let userID = userIDs[user]
        if case .failure(let error) = ServerFuzz.blocking({ try await store.setPassword("another horse \(UUID())", userID: userID) }) {
            throw finding("cannot change the password: \(error)")
        }
        // Every token of the user is revoked, those of earlier sign-ins too.
        for slot in 0..<3 { signIns[user][slot]?.works = false }
        endFeeds { $0.user == user }
    }

    private func passExpiry() throws(FuzzFinding) {
        steps.append("the clock passes every token's expiry")
        clock.advance(by: 2 * 3600)
        for user in 0..<2 { for slot in 0..<3 { signIns[user][slot]?.works = false } }
        endFeeds { _ in true }
    }

    @discardableResult
    private func signIn(user: Int, slot: Int) throws(FuzzFinding) -> SignIn {
        let signIn = SignIn(token: try issueToken(user: user))
        signIns[user][slot] = signIn
        return signIn
    }

    /// The tokens of the feeds `which` picks stopped working: those feeds must end.
    private func endFeeds(_ which: (Feed) -> Bool) {
        for index in feeds.indices where which(feeds[index]) {
            feeds[index].mustEnd = true
        }
    }

    // MARK: Promises

    /// Every feed that must end has ended (waiting for it), and every other is still open.
    private func checkFeeds() throws(FuzzFinding) {
        for feed in feeds where feed.mustEnd {
            guard feed.socket.wait(seconds: Self.endPatience, until: \.ended) else {
                throw finding("a feed of a token that no longer works still streams \(Self.endPatience) s later")
            }
        }
        feeds.removeAll { $0.mustEnd }
        for feed in feeds {
            feed.socket.readAvailable()
            if feed.socket.ended { throw finding("a feed of a working token ended") }
        }
    }

    // MARK: Plumbing

    private func issueToken(user: Int) throws(FuzzFinding) -> String {
        guard let store else { throw finding("not prepared") }
        let userID = userIDs[user]
        let issuedAt = clock.now
        let issued = ServerFuzz.blocking {
            try await store.createToken(kind: .access, userID: userID, clientID: "hmon", scope: "read,write", ttl: 3600, now: issuedAt).token
        }
        switch issued {
        case .success(let token): return token
        case .failure(let error): throw finding("cannot issue a token: \(error)")
        }
    }

    /// Sends `line` ("METHOD /path") with `token` and an optional JSON body; the answer's status.
    private func exchange(_ line: String, token: String, body: String?) throws(FuzzFinding) -> Int {
        var request = "\(line) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n"
        if let body { request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)" } else { request += "\r\n" }
        do {
            guard let status = try LoopbackHTTP.exchange(port: port, Array(request.utf8), halfClose: false).status else {
                throw finding("no answer to \(line)")
            }
            return status
        } catch let failure as FuzzFinding {
            throw failure
        } catch {
            throw finding("\(line): \(error)")
        }
    }

    private func finding(_ what: String) -> FuzzFinding {
        FuzzFinding(what + "\n  after: " + steps.joined(separator: "; "))
    }
}

/// A clock the fuzzer moves: from 2026-11-20 12:00 UTC, so every run means the same.
final class FuzzClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_795_176_000))
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
