import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Hummingbird
import Logging
import Synchronization
import Testing

/// The OAuth side of a source's cloud as the pulled sources' fixtures (`WithingsFixture`, `OuraFixture`)
/// play it, the same for both: a code works once and only for the address it was issued for, a refresh
/// token works once (the old one is then refused), and an access token the test expires is refused.
struct FixtureAuthorization: Sendable {
    /// code → redirect_uri it was issued for
    var codes: [String: String] = [:]
    var accessToken = ""
    var refreshToken = ""
    var tokenSerial = 0
    var accessTokenExpired = false
    var refreshes = 0

    /// A new code for the person sent back to `redirect`.
    mutating func issueCode(for redirect: String) -> String {
        let code = "code-\(UUID().uuidString.prefix(8).lowercased())"
        codes[code] = redirect
        return code
    }

    /// New tokens for a token request's form (`grant_type` `authorization_code` or `refresh_token`), named
    /// by `names` from their serial; false when the code or refresh token is not one that works.
    mutating func grant(_ form: [String: String], names: (Int) -> (access: String, refresh: String)) -> Bool {
        switch form["grant_type"] {
        case "authorization_code":
            guard let code = form["code"], let redirect = codes.removeValue(forKey: code), redirect == form["redirect_uri"] else { return false }
        case "refresh_token":
            guard !refreshToken.isEmpty, form["refresh_token"] == refreshToken else { return false }
            refreshes += 1
        default:
            return false
        }
        tokenSerial += 1
        (accessToken, refreshToken) = names(tokenSerial)
        accessTokenExpired = false
        return true
    }

    /// Whether a request's `Authorization` header carries the access token in use.
    func accepts(_ authorization: String) -> Bool {
        !accessToken.isEmpty && authorization == "Bearer " + accessToken && !accessTokenExpired
    }

    /// The tokens a person's authorization brings, as `hmon link add` gets them: their browser opens the
    /// source's authorization `page` (the fixture sends it back with a code), and the code is traded.
    static func tokens<Source: PulledSource>(opening page: URL, api: Source, clientID: String, clientSecret: String,
                                             redirectURI: String) async throws -> Source.Link.Tokens {
        let location = try #require(try await RawHTTP.send("GET", page.absoluteString).headers["Location"])
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        return try await api.requestToken(code: code, clientID: clientID, clientSecret: clientSecret, redirectURI: redirectURI, now: Date())
    }

    /// The authorization page's answer: the person sent back to `redirect` with the code and their `state`.
    static func sendBack(to redirect: String, code: String, state: String) -> Response {
        var location = URLComponents(string: redirect)!
        location.queryItems = [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state)]
        return Response(status: .found, headers: [.location: location.url!.absoluteString])
    }
}

/// A fixture's state, shared with its route handlers.
final class FixtureLock<State>: Sendable {
    let lock: Mutex<State>
    init(_ state: sending State) { lock = Mutex(state) }
    func withLock<T: Sendable>(_ body: (inout State) -> T) -> T { lock.withLock { body(&$0) } }
}

/// Runs a fixture's routes on a loopback port of its own, quietly.
enum FixtureServer {
    /// The fixture's address and the task serving it (cancelled to stop it).
    static func start(_ router: Router<BasicRequestContext>, name: String) async throws -> (url: URL, task: Task<Void, Error>) {
        let (ports, sink) = AsyncStream<Int>.makeStream()
        let quiet = Logger(label: "\(name.lowercased())-fixture", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { sink.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw HealthError.serverUnreachable("the \(name) fixture did not start") }
        return (URL(string: "http://127.0.0.1:\(port)")!, task)
    }
}
