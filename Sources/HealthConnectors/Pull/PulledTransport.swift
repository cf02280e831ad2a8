import Foundation

/// One HTTP exchange with a pulled source's API, answered with the status and body. The executable passes
/// an implementation over an HTTP client (the core and the server link none); each source's API says what
/// it sends over it (Withings, say, a form POST).
public protocol PulledTransport: Sendable {
    func send(_ method: String, _ url: URL, headers: [String: String], body: Data?) async throws -> (status: Int, body: Data)
}
