import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// URLSession with timeouts set and redirects never followed (a sign-in answers with a redirect whose
/// `Location` carries the token or code: following it would hand that secret to the redirect target).
final class HTTPTransport: Sendable {
    let server: URL
    private let session: URLSession
    private let redirectBlocker = RedirectBlocker()

    init(server: URL, timeout: TimeInterval) {
        self.server = server
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 3
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: redirectBlocker, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

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
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request, delegate: redirectBlocker)
        } catch let error as URLError {
            throw HealthError.serverUnreachable("cannot reach the server at \(serverName): \(Self.describe(error))")
        } catch {
            throw HealthError.serverUnreachable("cannot reach the server at \(serverName): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw HealthError.serverError("the server at \(serverName) did not answer in HTTP")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPReply(status: http.statusCode, headers: headers, body: data)
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused (is `hmon serve` running there?)"
        case .timedOut: "no answer in time"
        case .cannotFindHost, .dnsLookupFailed: "unknown host"
        case .networkConnectionLost: "the connection was lost"
        case .notConnectedToInternet: "no network"
        case .unsupportedURL, .badURL: "not an http:// or https:// address"
        default: error.localizedDescription
        }
    }
}

/// Refuses every redirect, so the 302 of a sign-in comes back as the answer itself.
private final class RedirectBlocker: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

/// `application/x-www-form-urlencoded`, both ways.
package enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn:
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    package static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    package static func encode(_ pairs: [(String, String)]) -> Data {
        Data(pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&").utf8)
    }

    /// Parses `a=1&b=2` (a query, a fragment or a form body); `+` is a space; later keys win.
    package static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func clean(_ s: Substring) -> String {
                String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            result[clean(parts[0])] = parts.count > 1 ? clean(parts[1]) : ""
        }
        return result
    }
}
