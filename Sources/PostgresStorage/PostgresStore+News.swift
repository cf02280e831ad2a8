import Foundation
import Logging
import PostgresNIO
import HealthCore
import HealthModel

extension PGConnection {
    /// The first statement of every write: moves the change token and takes the row lock that orders writers.
    /// Moving it is also what has the write announced at its commit, with no user's data changed if no
    /// other trigger noted any (schema version 30's `hmon_meta_token_moved`).
    @discardableResult
    func bumpChangeToken() async throws -> Int64 {
        try await one("UPDATE hmon_meta SET changes = changes + 1 RETURNING changes")?.value("changes", Int64.self) ?? 0
    }
}

/// What the listener hears is sent by the database itself, not by hmon's writers: statement triggers on the
/// tables a dashboard shows (readings and readings kept aside, devices, Exist's ownerships, profiles, and
/// tokens for revocations) note per transaction whose data changed and which kinds, a reading's kinds from
/// its fields through `field_change_kinds` (filled from `ChangeKind.byField` as the store opens), and at the
/// commit a deferred trigger sends one `StoreAnnouncement` per user on `hmon_changes`. So a write by any
/// path, psql's included, is announced, in commit order, and a rollback announces nothing.
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
