import Foundation
import GRDB
import HealthCore
import HealthModel

/// `hmon import --dry-run` on a store opened to read.
extension LocalStore {
    /// Runs a dry run's `body` where it may write what it then rolls back.
    ///
    /// A dry run finds or makes devices and fills the profile as an import would, then rolls all of it
    /// back in one transaction, so it needs a connection that may write. A store opened to read has one
    /// where the file and its folder may be written (`ReadOnlyOpening.queryOnly`), and the dry run uses it:
    /// a rolled-back transaction changes no byte of the file. Elsewhere the store may be in a folder
    /// nobody may write, or someone else's copy: the dry run works on a private copy (`onScratchCopy`).
    func onDryRunConnection<T>(_ body: (LocalStore) throws -> T) throws -> T {
        readOnlyOpening == .queryOnly ? try body(self) : try onScratchCopy(body)
    }

    /// Runs `body` on a private copy of this store, then throws the copy away. The copy is made with
    /// SQLite's online backup (consistent even while another process writes), in a folder of its own
    /// that only this user may read (it holds the person's health data), removed afterwards.
    private func onScratchCopy<T>(_ body: (LocalStore) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-dry-run-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw HealthError.storeUnavailable(
                "cannot make a scratch copy for the dry run in \(folder.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let copyURL = folder.appendingPathComponent("dry-run.sqlite")
        do {
            let copy = try DatabaseQueue(path: copyURL.path)
            try writer.backup(to: copy)
            try copy.close()
        } catch {
            throw mapped(error)
        }
        return try body(try LocalStore(url: copyURL, access: .readWrite, passwordHasher: passwordHasher, patience: patience))
    }
}
