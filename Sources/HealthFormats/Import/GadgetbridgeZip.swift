import Foundation
import HealthCore
import ZIPFoundation

extension Gadgetbridge {
    /// The database in a zip the person made of Gadgetbridge's export: `Gadgetbridge` or a `.db` file.
    static func databaseEntry(in entries: [Entry]) -> Entry? {
        entries.first { entry in
            let name = URL(fileURLWithPath: entry.path).lastPathComponent
            return entry.type == .file && !name.hasPrefix("._") && (name == "Gadgetbridge" || name.hasSuffix(".db"))
        }
    }

    /// Reads the zip's database: SQLite reads a file, not a stream, so the entry is inflated into a folder only
    /// this user can enter, and the folder is removed however the reading ends.
    static func readZipped(_ entry: Entry, of archive: Archive, name: String, timeZone: TimeZone,
                           emit: (ImportedReading) throws -> Void) throws -> ImportTally {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("hmon-gadgetbridge-\(UUID().uuidString)")
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ImportError(file: name, problem: "cannot make a temporary folder to inflate \(entry.path) into: \(error.localizedDescription)")
        }
        defer { try? manager.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("Gadgetbridge.db")
        do {
            _ = try archive.extract(entry, to: copy)
        } catch {
            throw ImportError(file: name, problem: "the zip archive is damaged or truncated (\(error)): \(entry.path) cannot be read")
        }
        let place = "\(name): \(entry.path)"
        let handle = try? FileHandle(forReadingFrom: copy)
        let head = (try? handle?.read(upToCount: ImportFormat.sqliteHeader.count)) ?? nil
        try? handle?.close()
        guard let head, Array(head) == ImportFormat.sqliteHeader else {
            throw ImportError(file: place, problem: "not an SQLite database: give the file Gadgetbridge's Data management → Export database writes")
        }
        return try read(copy, name: place, timeZone: timeZone, emit: emit)
    }
}
