import Foundation
import HealthCore
import ZIPFoundation

/// One file of a download that is a folder of many (a Samsung Health or Fitbit download), on disk or in
/// its zip: its path inside the download and a way to read it in chunks, so that no file is ever held whole
/// unless its reader chooses to (Samsung's small sleep files).
struct DownloadFile {
    /// "/"-separated, relative to the download's top (`Takeout/Fitbit/Global Export Data/weight-2026-03-14.json`).
    let path: String
    /// Feeds the file's bytes, chunk by chunk, to the function it is given.
    let read: (_ feed: (UnsafeRawBufferPointer) throws -> Void) throws -> Void

    var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    /// The folder it sits in (`Global Export Data`), empty at the top.
    var folder: String {
        let parts = path.split(separator: "/")
        return parts.count > 1 ? String(parts[parts.count - 2]) : ""
    }

    /// The whole file, for the few small ones read at once (a profile, a night's stages).
    func data() throws -> Data {
        var data = Data()
        try read { data.append(contentsOf: $0) }
        return data
    }

    /// A macOS resource fork (`__MACOSX/…/._name`), which zips made on a Mac carry beside each file.
    var isMacMetadata: Bool { path.hasPrefix("__MACOSX/") || name.hasPrefix("._") }

    /// The regular files under `folder`, in path order.
    static func files(in folder: URL) -> [DownloadFile] {
        let base = folder.standardizedFileURL.path
        let urls = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true } ?? []
        return urls.map { url in
            let full = url.standardizedFileURL.path
            let relative = full.hasPrefix(base + "/") ? String(full.dropFirst(base.count + 1)) : url.lastPathComponent
            return DownloadFile(path: relative) { feed in
                let file = try InputFile(url)
                defer { file.close() }
                try file.chunks { chunk, _ in try feed(chunk) }
            }
        }.sorted { $0.path < $1.path }
    }

    /// The files of a zip, each inflated as it is read; `name` is the zip's, for messages.
    static func files(in archive: Archive, name: String) -> [DownloadFile] {
        archive.filter { $0.type == .file }.map { entry in
            DownloadFile(path: entry.path) { feed in
                /// Errors of our own (a malformed file, the store) keep their meaning; anything else thrown
                /// while inflating means the archive itself is damaged.
                struct OwnError: Error { let error: any Error }
                do {
                    _ = try archive.extract(entry, bufferSize: Importer.chunkSize) { data in
                        do { try data.withUnsafeBytes { try feed($0) } } catch { throw OwnError(error: error) }
                    }
                } catch let own as OwnError {
                    throw own.error
                } catch {
                    throw ImportError(file: name, problem: "the zip archive is damaged or truncated (\(error)): \(entry.path) cannot be read")
                }
            }
        }.sorted { $0.path < $1.path }
    }
}
