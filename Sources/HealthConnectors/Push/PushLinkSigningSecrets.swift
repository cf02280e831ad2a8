import Foundation
import HealthCore
import HealthModel

/// The signing secret of a push link made with `--signing-secret-file`: the key the app signs each body
/// with (`X-Signature: sha256=HMAC`), so the server needs it in clear; a hash would not do.
///
/// Kept as the Withings links' tokens are, in a file per link in hmon's data folder (`push-signing/`,
/// mode 0600, folder 0700), not in the store: off a PostgreSQL server shared with other people and out of
/// every copy of the store. The file is named by the SHA-256 of the link's URL secret, the hash the store
/// keeps, so the server finds it from the URL alone; it also names the link's id, which `hmon link revoke`
/// deletes it by. A link with no such file takes unsigned posts.
public struct PushLinkSigningSecret: Codable, Sendable, Equatable {
    public var linkID: String
    public var secretHash: String
    public var signingSecret: String

    public init(linkID: String, secretHash: String, signingSecret: String) {
        self.linkID = linkID
        self.secretHash = secretHash
        self.signingSecret = signingSecret
    }
}

/// The folder of `PushLinkSigningSecret` files.
public struct PushLinkSigningSecrets: Sendable {
    public var folder: URL

    public init(folder: URL) { self.folder = folder }

    public init(paths: HMonPaths) { self.init(folder: paths.dataDirectory.appendingPathComponent("push-signing", isDirectory: true)) }

    private func file(secretHash: String) -> URL { folder.appendingPathComponent(secretHash + ".json") }

    /// Writes it atomically, readable by its owner only.
    public func save(_ secret: PushLinkSigningSecret) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw HealthError.storeUnavailable("cannot create \(folder.path) for the link's signing secret: \(error.localizedDescription)")
        }
        let url = file(secretHash: secret.secretHash)
        let bytes = try JSONEncoder().encode(secret)
        do {
            try AtomicFile.write(bytes, to: url)
        } catch {
            throw HealthError.storeUnavailable("cannot save the link's signing secret in \(url.path): \(error.reason)")
        }
    }

    /// The signing secret of the link whose URL secret hashes to `secretHash`; nil when it has none.
    public func signingSecret(secretHash: String) throws -> String? {
        let url = file(secretHash: secretHash)
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            // No file is an unsigned link; a file hmon cannot read must not pass for one.
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            throw HealthError.storeUnavailable("cannot read the link's signing secret in \(url.path): check its owner and mode (0600)")
        }
        guard let secret = try? JSONDecoder().decode(PushLinkSigningSecret.self, from: bytes) else {
            throw HealthError.storeUnavailable("\(url.path) is not a signing secret hmon wrote: revoke the link and make it again")
        }
        return secret.signingSecret
    }

    /// Deletes the files of these links; none is an error.
    public func delete(linkIDs: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            guard let bytes = FileManager.default.contents(atPath: url.path),
                  let secret = try? JSONDecoder().decode(PushLinkSigningSecret.self, from: bytes), linkIDs.contains(secret.linkID) else { continue }
            unlink(url.path)
        }
    }
}
