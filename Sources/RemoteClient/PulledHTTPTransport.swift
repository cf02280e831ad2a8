import Foundation
import HealthCore
import HealthConnectors
import HealthModel

/// Any pulled source's API (`PulledSource`) over the same HTTP client as the rest of hmon
/// (`HTTPTransport`): redirects never followed, a deadline on every exchange.
public struct PulledHTTPTransport: PulledTransport {
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 30) { self.timeout = timeout }

    public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?) async throws -> (status: Int, body: Data) {
        let base = URL(string: "/", relativeTo: url)?.absoluteURL ?? url
        let reply = try await HTTPTransport(server: base, timeout: timeout).send(method, url, headers: headers, body: body)
        return (reply.status, reply.body)
    }
}
