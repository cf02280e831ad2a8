#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A change feed (`GET /v1.1/hmon/changes`) held open over a plain loopback socket, read as it arrives,
/// as a dashboard holds it.
final class FeedSocket {
    private let descriptor: Int32
    private(set) var received: [UInt8] = []
    /// The server closed the connection, or sent the stream's last chunk.
    private(set) var ended = false

    init(port: Int, token: String) throws(LoopbackHTTP.Failure) {
        descriptor = try LoopbackHTTP.connected(port: port, seconds: 30)
        let request = Array("GET /v1.1/hmon/changes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { ended = true; return }
            sent += count
        }
    }

    deinit { close(descriptor) }

    /// The status of the answer's first line, once it arrived.
    var status: Int? { LoopbackHTTP.status(of: received) }

    /// How many times `text` has arrived so far.
    func count(of text: String) -> Int {
        String(decoding: received, as: UTF8.self).components(separatedBy: text).count - 1
    }

    /// Takes whatever has arrived, waiting at most `milliseconds` for the first of it.
    func readAvailable(waiting milliseconds: Int32 = 0) {
        guard !ended else { return }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var wait = milliseconds
        while true {
            let ready = poll(&waiting, 1, wait)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return }
            wait = 0
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            guard count > 0 else {
                ended = true
                return
            }
            received += buffer[..<count]
            // A chunked stream's end: a chunk of length zero.
            if received.count >= 5, Array(received.suffix(5)) == Array("0\r\n\r\n".utf8), status == 200 { ended = true }
        }
    }

    /// Reads until `condition` holds (true) or `seconds` passed (false).
    func wait(seconds: Double, until condition: (FeedSocket) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while true {
            if condition(self) { return true }
            let left = end.timeIntervalSinceNow
            guard left > 0 else { return false }
            readAvailable(waiting: Int32(min(100, max(1, left * 1000))))
        }
    }
}
