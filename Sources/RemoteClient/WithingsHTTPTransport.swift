import Foundation
import HealthCore
import HealthConnectors
import HealthModel

/// Withings' API over the same HTTP client as the rest of hmon (`HTTPTransport`): a form POST with the
/// bearer token, redirects never followed, a deadline on every exchange.
public struct WithingsHTTPTransport: WithingsTransport {
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 30) { self.timeout = timeout }

    public func post(_ url: URL, form: [(String, String)], bearer: String?) async throws -> (status: Int, body: Data) {
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if let bearer { headers["Authorization"] = "Bearer " + bearer }
        let base = URL(string: "/", relativeTo: url)?.absoluteURL ?? url
        let reply = try await HTTPTransport(server: base, timeout: timeout).send("POST", url, headers: headers, body: FormEncoding.encode(form))
        return (reply.status, reply.body)
    }
}
