import Foundation
import Hummingbird
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// A request body written to a temporary file as it arrives, never held whole in memory: a Health Auto
/// Export payload of a year of minute data is tens of megabytes, and the store reads it from the file,
/// twice (`HealthAutoExportReader`). The file is private to the server (mode 0600) and removed by `remove()`.
///
/// Spooling also keeps the client's upload apart from the store's work: the body's deadline
/// (`--body-timeout`) measures only how fast the client sends, not how long the import takes.
struct BodySpool {
    let url: URL
    let size: Int

    /// Writes `request`'s body to a new temporary file; `APIError.payloadTooLarge` past `limit` bytes (the file
    /// is removed then). `observe` sees each piece as it is written (a signature's check).
    static func write(_ request: Request, limit: Int, observe: (UnsafeRawBufferPointer) -> Void = { _ in }) async throws -> BodySpool {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw APIError.payloadTooLarge }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-body-\(UUID().uuidString).json")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw APIError(.internalServerError, code: 500, message: "hmon could not keep the body in a temporary file: \(String(cString: strerror(errno)))")
        }
        var size = 0
        do {
            defer { close(descriptor) }
            for try await buffer in request.body {
                size += buffer.readableBytes
                if size > limit { throw APIError.payloadTooLarge }
                try buffer.withUnsafeReadableBytes { bytes in
                    observe(bytes)
                    var offset = 0
                    while offset < bytes.count {
                        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0 {
                            if errno == EINTR { continue }
                            throw APIError(.internalServerError, code: 500,
                                           message: "hmon could not keep the body in a temporary file: \(String(cString: strerror(errno)))")
                        }
                        offset += written
                    }
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return BodySpool(url: url, size: size)
    }

    /// The first bytes of the file (fewer for a short one).
    func head(_ count: Int) -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
