import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written whole or not at all, readable by its owner only: the bytes go to a new temporary file
/// beside it (mode 0600: health data, sessions and link tokens are nobody else's), which is synced, renamed
/// over the target, and the folder synced so the rename itself survives a crash. A reader never sees half
/// a file, and a failure leaves an older file as it was. Every file hmon writes whole goes through here.
public enum AtomicFile {
    /// Why a write did not happen; nothing was changed.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// The file that was to be written.
        public let path: String
        /// The system's words for what went wrong ("No such file or directory").
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    public static func write(_ bytes: Data, to url: URL) throws(Failure) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(Secrets.randomHex(bytes: 6)).tmp")
        let descriptor = open(temporary.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(path: url.path, reason: lastError()) }
        let complete = writeAll(bytes, to: descriptor)
        let synced = complete && fsync(descriptor) == 0
        let reason = complete && synced ? "" : lastError()
        close(descriptor)
        guard complete, synced else {
            unlink(temporary.path)
            throw Failure(path: url.path, reason: reason)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = lastError()
            unlink(temporary.path)
            throw Failure(path: url.path, reason: reason)
        }
        syncFolder(folder)
    }

    /// Writes every byte, going on after a short write and after a signal interrupted the call.
    private static func writeAll(_ bytes: Data, to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var written = 0
            while written < raw.count {
                let count = systemWrite(descriptor, base + written, raw.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return true
        }
    }

    /// The rename is an entry of the folder's: without this sync a crash could bring the old file back.
    /// A folder that cannot be opened to read is left as it is (the file itself is whole either way).
    private static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

    #if canImport(Glibc)
    private static let systemWrite = Glibc.write
    #else
    private static let systemWrite = Darwin.write
    #endif
}
