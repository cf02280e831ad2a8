import Foundation
import HealthModel

/// Keeps the signed-in session between launches in `session.json` (mode 0600, folder 0700), so the
/// next `hmon` skips the sign-in. The file holds a bearer token: only its owner may read it.
public struct SessionStore: Sendable {
    public let file: URL

    public init(file: URL) { self.file = file }

    public init(paths: HMonPaths) { self.init(file: paths.sessionFile) }

    /// Writes the session atomically: a new file created with mode 0600, then renamed over the old one,
    /// so no reader ever sees a half-written file and the token is never readable by others.
    public func save(_ session: Session) throws {
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
        let bytes = try encoder.encode(session)
        do {
            try AtomicFile.write(bytes, to: file)
        } catch {
            throw HealthError.storeUnavailable("cannot save the session in \(file.path): \(error.reason)")
        }
    }

    /// The saved session, or nil when there is none (or the file is unreadable: then sign in again).
    /// A file someone made readable to others is put back to 0600.
    public func load() -> Session? {
        guard let bytes = FileManager.default.contents(atPath: file.path) else { return nil }
        if let mode = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.posixPermissions] as? Int,
           mode & 0o077 != 0 {
            chmod(file.path, 0o600)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Session.self, from: bytes)
    }

    /// Forgets the session (sign-out). No error when there is none.
    public func delete() throws {
        if unlink(file.path) != 0, errno != ENOENT {
            throw HealthError.storeUnavailable("cannot delete \(file.path): \(String(cString: strerror(errno)))")
        }
    }
}
