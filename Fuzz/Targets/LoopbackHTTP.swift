#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP exchange over a plain loopback socket: the request's bytes exactly as given (Foundation's
/// clients would tidy a malformed request before sending it, which is what the fuzzer must not do).
enum LoopbackHTTP {
    struct Answer {
        /// The status code of the answer's first line; nil when the server closed without one.
        var status: Int?
        var bytes: [UInt8]
        /// The connection ended with a reset rather than a close.
        var reset = false
    }

    enum Failure: Error, CustomStringConvertible {
        case connect(Int32), timedOut
        var description: String {
            switch self {
            case .connect(let code): "cannot connect to the server (errno \(code))"
            case .timedOut: "no answer within the time limit"
            }
        }
    }

    /// Sends `request` and reads until the server closes or `seconds` pass (generous: a hang is
    /// libFuzzer's to report with its own `-timeout`, and a replay in `swift test` shares the machine with
    /// suites that keep every core busy).
    ///
    /// `halfClose` closes the sending half after the request, so a server waiting for the rest of an
    /// unfinished request sees the end at once. Only for those: a server may close a connection whose
    /// client half-closed without answering (NIO does, unless it allows half-closure), as HTTP allows.
    static func exchange(port: Int, _ request: [UInt8], halfClose: Bool, seconds: Int = 30) throws(Failure) -> Answer {
        let descriptor = try connected(port: port, seconds: seconds)
        defer { close(descriptor) }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }  // the server may refuse a request before reading all of it
            sent += count
        }
        if halfClose { shutdown(descriptor, Int32(SHUT_WR)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var reset = false
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { answer += buffer[..<count]; continue }
            if count < 0 && errno == EINTR { continue }  // a signal, not the end of the answer
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw .timedOut }
            reset = count < 0 && errno == ECONNRESET
            break  // closed, or reset
        }
        return Answer(status: status(of: answer), bytes: answer, reset: reset)
    }

    /// A socket connected to the server on `port`, whose sends and receives time out after `seconds`; the
    /// caller closes it.
    static func connected(port: Int, seconds: Int) throws(Failure) -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw .connect(errno) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // libFuzzer's once-a-second SIGALRM (its -timeout check) can interrupt a connect that is still
        // under way: the connection then completes by itself, so wait for it instead of failing.
        if connected != 0 {
            let failure = errno
            guard failure == EINTR || failure == EINPROGRESS else {
                close(descriptor)
                throw .connect(failure)
            }
            do { try waitUntilConnected(descriptor, seconds: seconds) } catch {
                close(descriptor)
                throw error
            }
        }
        return descriptor
    }

    /// Waits for an interrupted connect to finish, then says how it ended (`SO_ERROR`).
    private static func waitUntilConnected(_ descriptor: Int32, seconds: Int) throws(Failure) {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        var ready: Int32
        repeat { ready = poll(&waiting, 1, Int32(seconds * 1000)) } while ready < 0 && errno == EINTR
        guard ready > 0 else { throw ready == 0 ? .timedOut : .connect(errno) }
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
        guard failure == 0 else { throw .connect(failure) }
    }

    /// "HTTP/1.1 404 Not Found" → 404.
    static func status(of answer: [UInt8]) -> Int? {
        let prefix = Array("HTTP/1.1 ".utf8)
        guard answer.count >= prefix.count + 3, answer.starts(with: prefix) else { return nil }
        return Int(String(decoding: answer[prefix.count..<prefix.count + 3], as: UTF8.self))
    }
}
