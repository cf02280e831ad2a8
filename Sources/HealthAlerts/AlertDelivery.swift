import Foundation
import HealthConnectors

/// Sends a finding where its rule says: to ntfy as ntfy documents publishing (a POST of the message to
/// the topic URL, with `Title`, `Priority` and `Tags` headers), or to a webhook as JSON, signed like the
/// push links when it has a secret.
public struct AlertDelivery: Sendable {
    private let transport: any PulledTransport

    public init(transport: any PulledTransport) {
        self.transport = transport
    }

    /// The request for `finding` under `rule`, for `user`, at `now`.
    public static func request(rule: AlertRule, finding: AlertFinding, user: String, now: Date, test: Bool = false)
        -> (url: URL, headers: [String: String], body: Data) {
        switch rule.destination {
        case .ntfy(let url, let priority):
            // Header values must be plain ASCII on the wire: ntfy takes the title through RFC 2047 otherwise;
            // hmon's titles are ASCII, and a character that is not is replaced rather than sent broken.
            let title = String(finding.title.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
            let headers = ["Title": title, "Priority": priority, "Tags": finding.tags.joined(separator: ","),
                           "Content-Type": "text/plain; charset=utf-8"]
            return (url, headers, Data(finding.message.utf8))
        case .webhook(let url, let secret):
            let payload = WebhookPayload(alert: rule.name, when: rule.when, user: user, title: finding.title,
                                         message: finding.message, at: now, test: test)
            let body = (try? WebhookPayload.encoder.encode(payload)) ?? Data()
            var headers = ["Content-Type": "application/json"]
            if let secret { headers[PushSignature.header] = PushSignature.value(body: body, secret: secret) }
            return (url, headers, body)
        }
    }

    /// One attempt: throws what went wrong (a status outside 2xx, or no answer).
    public func send(rule: AlertRule, finding: AlertFinding, user: String, now: Date, test: Bool = false) async throws {
        let request = Self.request(rule: rule, finding: finding, user: user, now: now, test: test)
        let answer = try await transport.send("POST", request.url, headers: request.headers, body: request.body)
        guard (200..<300).contains(answer.status) else {
            throw DeliveryProblem(description: "\(rule.destination.shownPlace) answered HTTP \(answer.status)")
        }
    }

    public struct DeliveryProblem: Error, CustomStringConvertible {
        public var description: String
    }

    /// The waits between attempts: a phone's ntfy server restarting, or a webhook behind a flaky tunnel,
    /// gets five tries over about a minute.
    public static let retryDelays: [Duration] = [.seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32)]
}

/// A webhook's JSON body.
struct WebhookPayload: Encodable {
    var alert: String
    var when: String
    var user: String
    var title: String
    var message: String
    var at: Date
    var test: Bool

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}
