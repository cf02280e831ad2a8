import Foundation
import HMonCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// A file written whole or not at all: a temporary file beside it (mode 0600: health data is nobody
/// else's), synced, then renamed over the target. A reader never sees half an export, and a failure
/// leaves an older file as it was.
enum AtomicFile {
    static func write(_ bytes: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
        let descriptor = open(temporary.path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandError("cannot write \(url.path): \(String(cString: strerror(errno))) (is the folder there and writable?)")
        }
        var written = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
                if n < 0 { if errno == EINTR { continue }; break }
                written += n
            }
        }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CommandError("cannot write \(url.path): \(reason); nothing was written")
        }
    }
}
