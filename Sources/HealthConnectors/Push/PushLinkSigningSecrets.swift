import Foundation
import HealthCore
import HealthModel

/// The signing secret of a push link made with `--signing-secret-file`: the key the app signs each body
/// with (`X-Signature: sha256=HMAC`), so the server needs it in clear; a hash would not do.
///
/// Links made before the store kept the secret beside the link (schema 25) have it in a file per link in
/// one server's data folder (`push-signing/`, mode 0600, folder 0700), so a second server of the same
/// PostgreSQL took that link's posts unsigned. `hmon serve` moves each file into the store when it starts
/// (`moveIntoStore`). The file is named by the SHA-256 of the link's URL secret, the hash the store keeps,
/// and names the link's id.
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

    /// Moves every secret of this folder into the store, beside its link, and deletes its file: from then on
    /// every server of the store verifies that link's posts, not only the one whose data folder held it. The
    /// file of a link that has a secret in the store already, or is gone, is deleted too (the store's wins).
    /// One hmon cannot read, or that the store could not take, is left and named in `problems`: this server
    /// still reads it for its link.
    public func moveIntoStore(_ links: any PushLinkStore) async -> (moved: Int, problems: [String]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return (0, []) }
        var moved = 0
        var problems: [String] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            guard let bytes = FileManager.default.contents(atPath: url.path),
                  let secret = try? JSONDecoder().decode(PushLinkSigningSecret.self, from: bytes),
                  name == secret.secretHash + ".json" else {
                problems.append("\(url.path) is not a signing secret hmon can read: check its owner and mode (0600), or revoke its link")
                continue
            }
            do {
                if try await links.adoptSigningSecret(secret.signingSecret, linkID: secret.linkID, secretHash: secret.secretHash) {
                    moved += 1
                }
                unlink(url.path)
            } catch {
                problems.append("cannot move \(url.path) into the store: \((error as? HealthError)?.message ?? String(describing: type(of: error)))")
            }
        }
        return (moved, problems)
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
