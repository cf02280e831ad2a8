import Foundation

/// A request at a pulled link's own address (`/KIND/SECRET`) other than the authorization's return: the
/// source's notification, or its check of the address before it sends any.
public struct PulledCallback: Sendable {
    public enum Method: Sendable { case get, head, post }
    /// How the body of a POST is read.
    public enum Body: Sendable { case form, bytes }

    /// What the server answers.
    public enum Answer: Sendable, Equatable {
        /// 200 and nothing more: a source would send again what is not acknowledged.
        case acknowledged
        /// 200, and the link is read right after (at most one read waiting per link, `PulledSync.schedule`).
        case read
        /// 200 with this JSON object.
        case json([String: String])
        /// Refused with this status and message.
        case refused(status: Int, message: String)
    }

    public var method: Method
    /// The query's fields; nil when it cannot be read.
    public var query: [String: String]?
    /// A POST's form fields (with `Body.form`).
    public var form: [String: String]
    /// A POST's body (with `Body.bytes`).
    public var body: Data

    public init(method: Method, query: [String: String]?, form: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.query = query
        self.form = form
        self.body = body
    }
}
