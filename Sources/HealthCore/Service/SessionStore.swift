import Foundation
import HealthModel

/// Keeps the signed-in sessions between launches in `session.json` (mode 0600, folder 0700), one per place
/// signed in to (a store's file, a server's address), so the next `hmon` on that place skips the sign-in and
/// signing in to one place never drops the sign-in saved for another. The file holds bearer tokens: only its
/// owner may read it. A file of an earlier hmon, holding one session, is read as that one.
public struct SessionStore: Sendable {
    public let file: URL

    public init(file: URL) { self.file = file }

    public init(paths: HMonPaths) { self.init(file: paths.sessionFile) }

    /// Keeps `session` for its place, replacing the one saved there before, and the other places' as they
    /// are. The file is written atomically: a new file created with mode 0600, then renamed over the old one,
    /// so no reader ever sees a half-written file and no token is ever readable by others.
    public func save(_ session: Session) throws {
        try write(all().filter { $0.location != session.location } + [session])
    }

    /// The session saved for `location` (a store's `location`, a server's address), or nil when there is none
    /// (or the file is unreadable: then sign in again). A file someone made readable to others is put back to 0600.
    public func load(at location: String) -> Session? {
        all().last { $0.location == location }
    }

    /// Forgets the session saved for `location` (sign-out there); the others stay. No error when there is none.
    public func delete(at location: String) throws {
        let kept = all().filter { $0.location != location }
        guard kept.isEmpty else { return try write(kept) }
        if unlink(file.path) != 0, errno != ENOENT {
            throw HealthError.storeUnavailable("cannot delete \(file.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Every saved session, oldest first.
    public func all() -> [Session] {
        guard let bytes = FileManager.default.contents(atPath: file.path) else { return [] }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.posixPermissions] as? Int,
           mode & 0o077 != 0 {
            chmod(file.path, 0o600)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        if let saved = try? decoder.decode(SavedSessions.self, from: bytes) { return saved.sessions }
        return (try? decoder.decode(Session.self, from: bytes)).map { [$0] } ?? []
    }

    private func write(_ sessions: [Session]) throws {
        let folder = file.deletingLastPathComponent()
        do {
            if !FileManager.default.fileExists(atPath: folder.path) {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw HealthError.storeUnavailable("cannot create \(folder.path) for the session: \(error.localizedDescription)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let bytes = try encoder.encode(SavedSessions(sessions: sessions))
        do {
            try AtomicFile.write(bytes, to: file)
        } catch {
            throw HealthError.storeUnavailable("cannot save the session in \(file.path): \(error.reason)")
        }
    }

    /// The file's shape: `{"sessions": [...]}`.
    private struct SavedSessions: Codable {
        var sessions: [Session]
    }
}
