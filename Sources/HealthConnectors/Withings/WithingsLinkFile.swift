import Foundation
import HealthCore
import HealthModel

/// What hmon keeps of one Withings link besides the store's push link (its id, user and hashed secret):
/// the person's own Withings developer app (client id and secret), the authorization's tokens, and how far
/// the measures have been read.
///
/// Kept in a file per link, `withings/LINK-ID.json` in hmon's data folder (mode 0600, folder 0700), not in
/// the store: the server that polls needs the client secret and tokens in clear to call Withings, so a
/// hash will not do, and a file only its owner can read keeps them off a PostgreSQL server shared with
/// other people and out of every backup and copy of the store (`hmon db copy`). Revoking the link
/// (`hmon link revoke`) deletes it.
public struct WithingsLink: Codable, Sendable, Equatable {
    public var linkID: String
    public var userID: String
    public var clientID: String
    public var clientSecret: String
    /// The link's path on `hmon serve`, `/withings/SECRET`: where the authorization and the notifications
    /// arrive. The store keeps only the secret's hash; the subscription needs it in clear.
    public var callbackPath: String
    /// The address Withings sends the person back to: `hmon serve`'s address and `callbackPath`.
    public var redirectURI: String
    /// The `state` of the authorization in progress; nil once it is done.
    public var pendingState: String?
    public var tokens: WithingsTokens?
    /// Withings' `updatetime` of the last fetch: the next one asks for what changed since (`lastupdate`).
    public var lastUpdate: Int64?
    /// The callback URL Withings was last subscribed to, so a server restarted with the same
    /// `--public-url` does not subscribe again.
    public var subscribedURL: String?

    public init(linkID: String, userID: String, clientID: String, clientSecret: String, callbackPath: String, redirectURI: String,
                pendingState: String?) {
        self.linkID = linkID
        self.callbackPath = callbackPath
        self.userID = userID
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.redirectURI = redirectURI
        self.pendingState = pendingState
    }
}

/// The folder of `WithingsLink` files.
public struct WithingsLinkFiles: Sendable {
    public var folder: URL

    public init(folder: URL) { self.folder = folder }

    public init(paths: HMonPaths) { self.init(folder: paths.dataDirectory.appendingPathComponent("withings", isDirectory: true)) }

    public func file(linkID: String) -> URL { folder.appendingPathComponent(linkID + ".json") }

    /// Writes the link atomically, readable by its owner only: a new 0600 file renamed over the old one.
    public func save(_ link: WithingsLink) throws {
        let url = file(linkID: link.linkID)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw HealthError.storeUnavailable("cannot create \(folder.path) for the Withings link: \(error.localizedDescription)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let bytes = try encoder.encode(link)
        do {
            try AtomicFile.write(bytes, to: url)
        } catch {
            throw HealthError.storeUnavailable("cannot save the Withings link in \(url.path): \(error.reason)")
        }
    }

    /// The link's file, or nil when there is none.
    public func load(linkID: String) throws -> WithingsLink? {
        guard let bytes = FileManager.default.contents(atPath: file(linkID: linkID).path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(WithingsLink.self, from: bytes)
        } catch {
            throw HealthError.storeUnavailable("\(file(linkID: linkID).path) is not a Withings link hmon wrote: "
                                               + "revoke the link and make it again with `hmon link add withings`")
        }
    }

    /// Deletes the link's file; no error when there is none.
    public func delete(linkID: String) {
        unlink(file(linkID: linkID).path)
    }
}
