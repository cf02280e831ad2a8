import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a local server, byte by byte: for the tests that play slow and idle clients,
/// which an HTTP client library would never be. Blocking calls: use it from a thread of its own
/// (`ServeCommandTests.offThePool`), never from the cooperative pool.
final class RawConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    var descriptor: Int32 { fd }

    /// Connects to 127.0.0.1:`port`, from `source` when given (any 127.x.y.z address is this machine: a
    /// second "client address" without a second machine). `receiveBuffer` shrinks the socket's receive
    /// buffer (SO_RCVBUF), so that a client that does not read fills it with little.
    init(port: Int, source: String? = nil, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            // Before connecting: the window the client announces is fixed by then.
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                Glibc.close(fd)
                throw Failure(description: "bind to \(source): \(reason)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw Failure(description: "connect to port \(port): \(reason)")
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// Sends as much of `bytes` as the socket takes now, without waiting: how many it took (0 when its
    /// buffers are full), or nil once the connection is closed or reset.
    func sendWithoutWaiting(_ bytes: ArraySlice<UInt8>) -> Int? {
        let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if count >= 0 { return count }
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
    }

    /// Whether the connection has been reset or shut down both ways, seen without reading: reading would make
    /// room for more of what the server sends, which a test of a client that never reads must not do.
    var isResetWithoutReading: Bool {
        var poller = pollfd(fd: fd, events: 0, revents: 0)
        _ = poll(&poller, 1, 0)
        return poller.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Whether the server has closed the connection (end of stream or reset), without waiting. Bytes the
    /// server sent first (a 503) are left unread.
    var isClosedByPeer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
            // Data (an answer): read past it to see whether the end follows.
        }
    }

    /// Waits up to `timeout` seconds for the server to close the connection; true when it did.
    func waitForClose(timeout: Double) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if isClosedByPeer { return true }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, Int32(max(1, min(100, end.timeIntervalSinceNow * 1000))))
        }
        return isClosedByPeer
    }

    /// Waits up to `timeout` seconds until at least one of `connections` has bytes to read or has been
    /// closed; true when one has.
    static func anyReadable(_ connections: [RawConnection], timeout: Double) -> Bool {
        var pollers = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let ready = poll(&pollers, nfds_t(pollers.count), Int32(max(1, end.timeIntervalSinceNow * 1000)))
            if ready > 0 { return true }
        }
        return false
    }

    /// The bytes that arrive within `timeout` seconds (empty if none), or nil once the server closed the
    /// connection. For streams that never end (the change feed).
    func readSome(timeout: Double) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(max(1, timeout * 1000))) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// Reads one HTTP answer (head and a `Content-Length` body) within `timeout` seconds; nil if it does not
    /// arrive whole in time.
    func readResponse(timeout: Double) -> String? {
        let end = Date().addingTimeInterval(timeout)
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while Date() < end {
            if let text = Self.completeResponse(received) { return text }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, end.timeIntervalSinceNow * 1000)))
            guard ready > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return Self.completeResponse(received) }
            received += buffer[0..<count]
        }
        return Self.completeResponse(received)
    }

    private static func completeResponse(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<headEnd.lowerBound].lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text[headEnd.upperBound...].utf8.count >= length ? text : nil
    }
}

extension RawConnection {
    /// Waits up to `timeout` seconds until the socket takes more bytes; true when it does.
    func waitUntilWritable(timeout: Double) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&poller, 1, Int32(max(1, timeout * 1000))) > 0
    }
}
