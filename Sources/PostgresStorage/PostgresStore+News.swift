import Foundation
import Logging
import PostgresNIO
import Synchronization
import HealthCore
import HealthModel

/// What a write transaction announces when it commits: the users whose data it changed, with the kinds, and
/// whether it revoked tokens. Filled in by the write's statements (`PGConnection.announce(changedDataOf:)`),
/// sent by `PostgresStore.write` as `NOTIFY hmon_changes` inside the transaction, so PostgreSQL delivers it
/// at the commit, in commit order, and drops it with a rollback.
final class WriteNews: Sendable {
    private struct State {
        /// Per user, the kinds changed; a nil value: not known.
        var users: [String: Set<ChangeKind>?] = [:]
        var credentials = false
    }

    private let state = Mutex(State())

    func changed(dataOf userID: String, kinds: Set<ChangeKind>?) {
        state.withLock { state in
            if let known = state.users[userID] {
                state.users[userID] = known.flatMap { known in kinds.map { known.union($0) } }
            } else {
                state.users[userID] = kinds
            }
        }
    }

    func revokedTokens() { state.withLock { $0.credentials = true } }

    /// One announcement per user changed (the first also says whether tokens were revoked), or one that
    /// only moves the token when the write changed nobody's data.
    func announcements(token: Int64) -> [StoreAnnouncement] {
        state.withLock { state in
            let users = state.users.sorted { $0.key < $1.key }
            guard !users.isEmpty else { return [StoreAnnouncement(token: token, credentials: state.credentials)] }
            return users.enumerated().map { index, entry in
                StoreAnnouncement(token: token, userID: entry.key, kinds: entry.value, credentials: index == 0 && state.credentials)
            }
        }
    }
}

extension PGConnection {
    /// Says, when this write commits, that it changed `userID`'s readings, devices or profile (`kinds`, nil: any).
    func announce(changedDataOf userID: String, kinds: Set<ChangeKind>? = nil) {
        news?.changed(dataOf: userID, kinds: kinds)
    }

    /// Says, when this write commits, that it revoked tokens, so open feeds look theirs up again.
    func announceRevokedTokens() { news?.revokedTokens() }

    /// The first statement of every write: moves the change token and takes the row lock that orders writers.
    func bumpChangeToken() async throws -> Int64 {
        try await one("UPDATE hmon_meta SET changes = changes + 1 RETURNING changes")?.value("changes", Int64.self) ?? 0
    }

    /// Queues the write's announcements; PostgreSQL sends them when the transaction commits.
    func announce(token: Int64) async throws {
        guard let news else { return }
        for announcement in news.announcements(token: token) {
            let payload = String(decoding: try JSONEncoder().encode(announcement), as: UTF8.self)
            try await run("SELECT pg_notify(\(PostgresStore.announcementChannel), \(payload))")
        }
    }
}

extension PostgresStore: AnnouncingStore {
    static let announcementChannel = "hmon_changes"

    /// Listens on a connection of its own (not one of the pool's, which are lent to one request at a time)
    /// and hands on every announcement; when that connection is lost it says `.deaf`, connects again after
    /// 0.5 s, doubling up to 5 s, and says `.listening` with the change token once it hears again.
    public func news() -> AsyncStream<StoreNews> {
        let (stream, continuation) = AsyncStream.makeStream(of: StoreNews.self, bufferingPolicy: .bufferingNewest(1024))
        let location = connection, logger = logger
        let task = Task {
            var pause = Duration.milliseconds(500)
            while !Task.isCancelled {
                if let listener = try? await PostgresConnection.connect(configuration: try Self.singleConfiguration(location),
                                                                        id: 1, logger: logger) {
                    await withTaskCancellationHandler {
                        try? await listener.listen(on: Self.announcementChannel) { notifications in
                            // Listening before the token is read: a write committed in between is announced.
                            let token = try await PGConnection(connection: listener, logger: logger)
                                .one("SELECT changes FROM hmon_meta")?.value("changes", Int64.self) ?? 0
                            continuation.yield(.listening(token: token))
                            pause = .milliseconds(500)
                            for try await notification in notifications {
                                guard let announcement = try? JSONDecoder().decode(StoreAnnouncement.self,
                                                                                   from: Data(notification.payload.utf8)) else { continue }
                                continuation.yield(.announced(announcement))
                            }
                        }
                    } onCancel: {
                        let closing: EventLoopFuture<Void> = listener.close()
                        _ = closing
                    }
                    try? await listener.close()
                }
                if Task.isCancelled { break }
                continuation.yield(.deaf)
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(5))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
