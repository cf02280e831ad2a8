import Foundation
import HealthCore

/// An app that posts a user's readings to a secret link of its own (`hmon link add KIND`): the link's kind,
/// how its body is read and decoded, and how what it decodes to is kept. Everything else is the same for
/// every app and done once by `PushRoutes`: the link's user from its secret (404 when it is unknown or
/// revoked, before any of the body is read), the body read within the source's limit, the signature of a
/// link made with a signing secret checked before the body is decoded (401, nothing kept), the change event
/// for the link's user, the errors mapped and the answer sent as JSON.
///
/// The source's own record ids make a payload sent again add nothing: that is each source's `keep`.
protocol PushSource: Sendable {
    /// How the body is held while it is read: `Data`, or a `BodySpool` for bodies too large to hold.
    associatedtype Body: PushBodyForm
    /// What the body decodes to, before anything is stored.
    associatedtype Payload
    /// What the app is answered: added, already there, refused with why, skipped kinds by name.
    associatedtype Answer: Encodable

    static var kind: PushLinkKind { get }
    /// The links' path, `POST {prefix}{secret}`; also what the request log shows in place of the secret.
    static var prefix: String { get }
    /// The app's name as a wrong link's 404 says it: "This is not an hmon Health Connect link".
    static var appName: String { get }
    /// Past it a body is a 413, a 4xx the apps do not send again.
    static var maxBodyBytes: Int { get }
    /// Whether the app can sign its posts, and so whether its links may have a signing secret.
    static var signing: PushSigning { get }
    /// Whether `POST {prefix without its last slash}` also takes the body, from a writer's Bearer token
    /// instead of a link.
    static var takesBearerToken: Bool { get }

    /// Reads the payload: a body that is none is a `PushBodyProblem` (a 400 naming `body`), and keeps nothing.
    static func payload(of body: Body) async throws -> Payload
    /// Whether keeping this payload may write anything: a test post does not wake the user's dashboards.
    static func writes(_ payload: Payload) -> Bool
    /// Keeps the payload for the link's user. A `PushBodyProblem` thrown here is a 400 too (a source whose
    /// payload is read while it is stored, in one transaction).
    static func keep(_ payload: Payload, service: LocalHealthService, delivery: PushDelivery) async throws -> Answer
    /// What the answer says came and was refused, as the link notes it for the sync doctor.
    static func arrival(of answer: Answer) -> LinkArrival
}

/// Whom a push is for and by which link: what a source's `keep` may need beside the payload.
struct PushDelivery: Sendable {
    var userID: String
    /// The link it came by; nil for a writer's Bearer token.
    var link: PushLinkHolder?
    var links: any PushLinkStore
    var now: Date
}

extension PushSource {
    static var takesBearerToken: Bool { false }
    static func writes(_ payload: Payload) -> Bool { true }
}

/// What is wrong with a pushed body, said to the app (whose activity log shows it) as a 400 naming `body`.
struct PushBodyProblem: Error {
    var problem: String
}
