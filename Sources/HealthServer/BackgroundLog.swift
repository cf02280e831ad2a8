import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// The server's log, written to a file descriptor (standard error) by a thread of its own.
///
/// `StreamLogHandler` writes each line with a `write(2)` under a global lock on the request's own event
/// loop: at thousands of requests a second the event loops queued on that lock and the system call, and a
/// slow reader of standard error (a terminal, a full pipe) slowed every request. Here a request only
/// appends its line to a buffer; the writer thread takes whatever has gathered and writes it at once, so
/// the lines stay one per request, in order, and reach the descriptor within a few milliseconds.
///
/// When the descriptor cannot keep up, at most `maximumBufferedBytes` wait; lines past that are dropped
/// and the next write says how many, rather than the server's memory growing.
///
/// `@unchecked Sendable`: every stored property but the constants is touched only while `condition` is locked.
public final class BackgroundLogWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let maximumBufferedBytes: Int
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var dropped = 0
    private var writing = false

    /// Standard error, shared by every handler of the process.
    public static let standardError = BackgroundLogWriter(descriptor: 2)

    public init(descriptor: Int32, maximumBufferedBytes: Int = 4 << 20) {
        self.descriptor = descriptor
        self.maximumBufferedBytes = maximumBufferedBytes
        let thread = Thread { [self] in drain() }
        thread.name = "hmon log writer"
        thread.start()
    }

    /// Queues one line (a newline is added).
    public func append(_ line: String) {
        condition.lock()
        if pending.count + line.utf8.count < maximumBufferedBytes {
            pending.append(contentsOf: line.utf8)
            pending.append(UInt8(ascii: "\n"))
        } else {
            dropped += 1
        }
        condition.signal()
        condition.unlock()
    }

    /// Waits until every line queued so far has been written (before the process exits).
    public func flush() {
        condition.lock()
        while !pending.isEmpty || writing { condition.wait() }
        condition.unlock()
    }

    private func drain() {
        var chunk: [UInt8] = []
        while true {
            condition.lock()
            writing = false
            condition.broadcast()  // a `flush()` may be waiting
            while pending.isEmpty && dropped == 0 { condition.wait() }
            swap(&chunk, &pending)
            if dropped > 0 {
                chunk.append(contentsOf: "hmon: \(dropped) log lines dropped: standard error was not read fast enough\n".utf8)
                dropped = 0
            }
            writing = true
            condition.unlock()
            write(chunk)
            chunk.removeAll(keepingCapacity: chunk.capacity <= 1 << 20)
        }
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // closed or broken: the log is lost, the server goes on
                }
            }
        }
    }
}

/// A swift-log handler writing through a `BackgroundLogWriter`, in `StreamLogHandler`'s format
/// (`2026-05-04T10:00:00+0000 info hmon.server : GET /v1.1/users/self 200 0.4ms`).
public struct BackgroundLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let writer: BackgroundLogWriter

    public init(label: String, writer: BackgroundLogWriter = .standardError) {
        self.label = label
        self.writer = writer
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        let fields = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        writer.append("\(Self.timestamp()) \(event.level)\(fields) \(label) : \(event.message)")
    }

    /// The local time as ISO 8601 with its offset, as `StreamLogHandler` writes it.
    private static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        localtime_r(&now, &local)
        var text = [CChar](repeating: 0, count: 32)
        let length = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
