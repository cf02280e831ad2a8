import AsyncHTTPClient
import Foundation
import Synchronization
import HealthCore
import HealthModel

/// The change feed's client: `GET /v1.1/hmon/changes` held open (server-sent events), so a remote dashboard
/// reloads when the server says its user's data changed and sends no request at all while nothing does.
///
/// When the feed drops (the server stopped, the network went, or it fell silent for longer than two and a
/// half heartbeats) it is opened again after 0.5 s, then 1, 2, 4 and 5 s between tries; failed tries mark
/// the transport offline, so the status bar says "offline since 19:41" meanwhile. An older server without
/// the route (404) gets `.unsupported` once, and the dashboard polls as before.
extension RemoteHealthService {
    public func changes() -> AsyncStream<ChangeFeedEvent>? {
        let (events, continuation) = AsyncStream.makeStream(of: ChangeFeedEvent.self, bufferingPolicy: .bufferingNewest(16))
        let task = Task { [self] in
            await followChanges(continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }

    static let changeFeedPath = "/v1.1/hmon/changes"

    private func followChanges(_ continuation: AsyncStream<ChangeFeedEvent>.Continuation) async {
        var backoff = FeedBackoff()
        while !Task.isCancelled {
            // Not signed in yet (the sign-in form): nothing to follow. Looked at locally, twice a second.
            guard var session = await currentSession() else {
                try? await Task.sleep(for: .milliseconds(500))
                continue
            }
            var wasOpen = false
            do {
                if let expiresAt = session.expiresAt, expiresAt <= Date(), session.refreshToken != nil {
                    session = try await refresh(from: session)
                }
                let (status, body) = try await http.openStream(http.url(Self.changeFeedPath), headers: [
                    "Authorization": "Bearer \(session.token)", "Accept": "text/event-stream",
                ])
                switch status {
                case 200:
                    wasOpen = true
                    backoff.reset()
                    continuation.yield(.connected)
                    try await read(body, as: session.token, into: continuation)
                case 404:
                    continuation.yield(.unsupported)
                    return
                case 401 where session.refreshToken != nil:
                    // An expired token: the next try goes with a fresh one.
                    _ = try await refresh(from: session)
                    continue
                default:
                    break
                }
            } catch {
                // Said by the transport's "offline since"; the screen keeps what it loaded last.
            }
            if Task.isCancelled { return }
            if wasOpen { continuation.yield(.disconnected) }
            try? await Task.sleep(for: backoff.next())
        }
    }

    /// Reads events until the server ends the stream or the session changes (a sign-out, a refreshed token:
    /// the feed is opened again as whoever is signed in then), or throws when it falls silent for longer
    /// than 2.5 heartbeats (a connection that died without a word: a laptop's lid, a proxy that dropped it).
    private func read(_ body: HTTPClientResponse.Body, as token: String,
                      into continuation: AsyncStream<ChangeFeedEvent>.Continuation) async throws {
        let silence = FeedSilence()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var parser = ServerSentEvents()
                for try await chunk in body {
                    silence.heard()
                    for event in try parser.feed(chunk.readableBytesView) {
                        switch event.name {
                        case "ready":
                            if let seconds = Self.heartbeatSeconds(in: event.data) { silence.expectHeartbeat(every: seconds) }
                        case "change":
                            continuation.yield(.changed(kinds: Self.kinds(in: event.data)))
                        default:
                            break
                        }
                    }
                }
            }
            group.addTask { [http, self] in
                while await currentSession()?.token == token {
                    guard let wait = silence.timeLeft() else {
                        http.markUnreachable()
                        throw HealthError.serverUnreachable("the change feed of \(http.serverName) fell silent")
                    }
                    // A local look at the session once a second; no request.
                    try await Task.sleep(for: min(wait, .seconds(1)))
                }
            }
            // The first to end (the stream, or the watchdog's throw) ends both.
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// `heartbeat` of the `ready` event's `{"token":41,"heartbeat":15}`.
    static func heartbeatSeconds(in data: String) -> Double? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
              let seconds = (object["heartbeat"] as? NSNumber)?.doubleValue, seconds > 0 else { return nil }
        return seconds
    }

    /// A `change` event's `kinds` (`["energy"]`), nil when it names none or one this client does not know:
    /// then anything may have changed.
    static func kinds(in data: String) -> Set<ChangeKind>? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
              let names = object["kinds"] as? [String] else { return nil }
        let kinds = names.compactMap(ChangeKind.init(rawValue:))
        return kinds.count == names.count ? Set(kinds) : nil
    }
}

/// When the feed last said anything, against how long it may stay silent: two and a half heartbeats.
private final class FeedSilence: Sendable {
    private struct State {
        var lastHeard = ContinuousClock.now
        /// Until `ready` says the server's heartbeat: two and a half of the default's (15 s).
        var limit = Duration.milliseconds(37_500)
    }

    private let state = Mutex(State())

    func heard() { state.withLock { $0.lastHeard = .now } }

    func expectHeartbeat(every seconds: Double) {
        state.withLock { $0.limit = .milliseconds(Int((seconds * 2500).rounded())) }
    }

    /// How long until the silence is too long; nil once it is.
    func timeLeft() -> Duration? {
        state.withLock { state in
            let left = state.limit - (ContinuousClock.now - state.lastHeard)
            return left > .zero ? left : nil
        }
    }
}

/// The waits between tries to open the change feed again: 0.5 s, doubling up to 5 s; back to 0.5 s once open.
struct FeedBackoff {
    static let first = Duration.milliseconds(500)
    static let longest = Duration.seconds(5)
    private var wait = first

    mutating func next() -> Duration {
        defer { wait = min(wait * 2, Self.longest) }
        return wait
    }

    mutating func reset() { wait = Self.first }
}
