import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import CheckedNumbers
import HealthCore
import HealthModel

/// One HTTP exchange's outcome: status, headers and body. Transport faults never get this far: they are
/// `HealthError.serverUnreachable` with the server named.
struct HTTPReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// HTTP over AsyncHTTPClient (SwiftNIO, TLS through NIOSSL), with a deadline on every exchange and
/// redirects never followed: a sign-in answers with a redirect whose `Location` carries the token or
/// code, and following it would hand that secret to the redirect target.
///
/// Why not URLSession: on Linux it is libcurl underneath, and linking it made every `hmon` start load
/// some thirty shared libraries (curl, GnuTLS, Kerberos, LDAP…) — about 5 MB of memory and several
/// milliseconds of each launch, for a dashboard that mostly never leaves the local store.
final class HTTPTransport: Sendable {
    let server: URL
    private let timeout: TimeInterval

    /// One client for the process, like `HTTPClient.shared` but refusing redirects. It lives as long
    /// as the process, so it is never shut down; its event loops start on the first request.
    ///
    /// A refused connection fails at once rather than being retried with back-off until the connect
    /// timeout (the pool's default): a person pressing R on a stopped server should hear so now, not in
    /// ten seconds, and the dashboard tries again by itself at its next refresh anyway.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(3)),
            decompression: .disabled)
        configuration.connectionPool.retryConnectionEstablishment = false
        // An idle connection is dropped well before `hmon serve` closes it (its --idle-timeout, 10 s by
        // default): the pool's 60 s let a request go out on a connection the server was closing just then,
        // and it failed with "the connection was lost" (seen under load in the tests).
        configuration.connectionPool.idleTimeout = .seconds(4)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// The most a reply body may hold; the contract's largest (100 messages) is far smaller.
    private static let bodyLimit = 8 * 1024 * 1024

    init(server: URL, timeout: TimeInterval) {
        self.server = server
        self.timeout = timeout
    }

    /// Since when no exchange has reached the server: set by the first that fails in transport, cleared by
    /// the next that gets any answer. The dashboard marks a stale screen "offline since 19:41" from it.
    var offlineSince: Date? { unreachableSince.withLock { $0 } }
    private let unreachableSince = Mutex<Date?>(nil)

    /// The server as people type it, for messages: "http://127.0.0.1:8080".
    var serverName: String {
        var text = server.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// `server` + `path` + `query`, e.g. `url("/v1.1/messages/last", [("count", "20")])`.
    func url(_ path: String, _ query: [(String, String)] = []) -> URL {
        var base = serverName
        if !path.hasPrefix("/") { base += "/" }
        var components = URLComponents(string: base + path)!
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { "\(FormEncoding.escape($0.0))=\(FormEncoding.escape($0.1))" }
                .joined(separator: "&")
        }
        return components.url!
    }

    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) async throws -> HTTPReply {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw HealthError.serverUnreachable("cannot reach the server at \(serverName): not an http:// or https:// address")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let deadline = NIODeadline.now() + .nanoseconds(Int64(rounding: timeout * 1e9))
        do {
            let response = try await Self.client.execute(request, deadline: deadline)
            let bytes = try await response.body.collect(upTo: Self.bodyLimit)
            var replyHeaders: [String: String] = [:]
            for (name, value) in response.headers { replyHeaders[name] = replyHeaders[name].map { "\($0), \(value)" } ?? value }
            unreachableSince.withLock { $0 = nil }
            return HTTPReply(status: Int(response.status.code), headers: replyHeaders, body: Data(bytes.readableBytesView))
        } catch let error as HealthError {
            throw error
        } catch {
            unreachableSince.withLock { if $0 == nil { $0 = Date() } }
            throw HealthError.serverUnreachable("cannot reach the server at \(serverName): \(Self.describe(error))")
        }
    }

    /// Opens a long-lived GET (the change feed): returns once the answer's head has arrived, within the
    /// timeout, with its body still arriving; no deadline runs on the body. Counts for `offlineSince` as
    /// `send` does.
    func openStream(_ url: URL, headers: [String: String]) async throws -> (status: Int, body: HTTPClientResponse.Body) {
        var request = HTTPClientRequest(url: url.absoluteString)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await Self.client.execute(request, deadline: .now() + .nanoseconds(Int64(rounding: timeout * 1e9)))
            unreachableSince.withLock { $0 = nil }
            return (Int(response.status.code), response.body)
        } catch {
            markUnreachable()
            throw HealthError.serverUnreachable("cannot reach the server at \(serverName): \(Self.describe(error))")
        }
    }

    /// The server stopped answering (a change feed fell silent): "offline since" starts now, unless it already runs.
    func markUnreachable() {
        unreachableSince.withLock { if $0 == nil { $0 = Date() } }
    }

    /// A transport failure in a few words a person can act on.
    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout: return "no answer in time"
            case .remoteConnectionClosed, .cancelled: return "the connection was lost"
            case .invalidURL, .emptyHost, .emptyScheme: return "not an http:// or https:// address"
            case .bodyLengthMismatch: return "the reply was cut short"
            default: return "\(error)"
            }
        }
        if error is NIOTooManyBytesError { return "the reply was larger than hmon accepts (8 MB)" }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty { return "unknown host" }
            if let first = error.connectionErrors.first { return describe(first.error) }
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "connection refused (is `hmon serve` running there?)"
            case ETIMEDOUT: return "no answer in time"
            case ENETUNREACH, EHOSTUNREACH: return "no network route to the server"
            case ECONNRESET, EPIPE: return "the connection was lost"
            default: return String(cString: strerror(error.errnoCode))
            }
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return "no answer in time" }
        if error is SocketAddressError { return "unknown host" }
        return "\(error)"
    }
}
