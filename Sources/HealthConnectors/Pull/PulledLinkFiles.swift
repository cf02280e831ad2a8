import Foundation
import HealthCore
import HealthModel

/// The folder of one pulled source's link files, `KIND/LINK-ID.json` in hmon's data folder.
public struct PulledLinkFiles<Link: PulledLink>: Sendable {
    public var folder: URL

    public init(folder: URL) { self.folder = folder }

    public init(paths: HMonPaths) { self.init(folder: paths.dataDirectory.appendingPathComponent(Link.kindName, isDirectory: true)) }

    public func file(linkID: String) -> URL { folder.appendingPathComponent(linkID + ".json") }

    /// Writes the link atomically, readable by its owner only: a new 0600 file renamed over the old one.
    public func save(_ link: Link) throws {
        let url = file(linkID: link.linkID)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw HealthError.storeUnavailable("cannot create \(folder.path) for the \(Link.sourceName) link: \(error.localizedDescription)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let bytes = try encoder.encode(link)
        do {
            try AtomicFile.write(bytes, to: url)
        } catch {
            throw HealthError.storeUnavailable("cannot save the \(Link.sourceName) link in \(url.path): \(error.reason)")
        }
    }

    /// The link's file, or nil when there is none.
    public func load(linkID: String) throws -> Link? {
        guard let bytes = FileManager.default.contents(atPath: file(linkID: linkID).path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Link.self, from: bytes)
        } catch {
            throw HealthError.storeUnavailable("\(file(linkID: linkID).path) is not a \(Link.sourceName) link hmon wrote: "
                                               + "revoke the link and make it again with `hmon link add \(Link.kindName)`")
        }
    }

    /// Deletes the link's file; no error when there is none.
    public func delete(linkID: String) {
        unlink(file(linkID: linkID).path)
    }
}
