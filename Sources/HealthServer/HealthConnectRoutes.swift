import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import HTTPTypes
import Hummingbird
import NIOCore
import SAMIContract

/// Where an Android app posts Health Connect records: `POST /health-connect/{secret}`, the link
/// `hmon link add health-connect` prints; the secret stands for its user. Life Dashboard Companion's and
/// HC Webhook's payloads are both taken, told apart by shape (`HealthConnectPayload`).
///
/// The answers are chosen for the apps, which retry on 5xx, 408 and 429 and not on other 4xx: a wrong or
/// revoked link is a 404; a link with a signing secret takes a body only with its `X-Signature`, else 401
/// and nothing is kept; a body that is no payload at all is a 400 naming the problem; a payload with some
/// records hmon refuses is a 200 that counts them, with why, so the app does not send the rest again and
/// again. Only the store's own failures are 5xx, which the app rightly retries.
struct HealthConnectRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = "/health-connect/"

    let links: any PushLinkStore
    let services: UserServices
    let configuration: ServerConfiguration

    func add(to router: Router<ServerContext>) {
        router.post("/health-connect/:secret") { request, context in
            let secret = context.parameters.get("secret") ?? ""
            guard let userID = try await links.pushLinkUser(secret: secret, kind: .healthConnect, now: configuration.clock()) else {
                throw APIError(.notFound, code: 404,
                               message: "This is not an hmon Health Connect link (or it was revoked): run `hmon link add health-connect` for a new one.")
            }
            return try await receive(request, secret: secret, userID: userID)
        }
    }

    private func receive(_ request: Request, secret: String, userID: String) async throws -> Response {
        // Past the limit, a 413 (`ErrorEnvelopeMiddleware`): a 4xx, which the app does not send again.
        let body = try await request.body.collect(upTo: ServerLimits.healthConnectMaxBodyBytes)
        let bytes = Data(body.readableBytesView)
        // The signature is checked before the body is read at all: an unsigned body keeps nothing.
        let signing = try configuration.pushSigningSecrets?.signingSecret(secretHash: Secrets.sha256Hex(secret))
        if let signing, !PushSignature.isValid(request.headers[HTTPField.Name(PushSignature.header)!], body: bytes, secret: signing) {
            throw APIError(.unauthorized, code: SAMI.ErrorCode.unauthorized,
                           message: "The body's X-Signature is missing or wrong: set the link's signing secret in the app (Webhook Headers → HMAC signing secret).")
        }
        let payload: HealthConnectPayload
        do {
            payload = try HealthConnectPayload(json: bytes, calendar: .current)
        } catch {
            throw APIError(.badRequest, code: SAMI.ErrorCode.validation, message: error.problem,
                           errors: [[SAMI.ErrorEnvelope.FieldProblem(field: "body", messages: [error.problem])]])
        }
        // The link stands for its user: that user's dashboards hear of what it writes (`ChangeFeed`).
        ChangeFeedMiddleware.wrote(for: userID)
        let tally: HealthConnectTally
        do {
            tally = try await HealthConnectArrival.store(payload.readings, service: services.service(for: userID), userID: userID,
                                                         now: configuration.clock())
        } catch let error as HealthError {
            throw APIError.from(error)
        }
        return JSONBody.response(HealthConnectAnswer(payload: payload, tally: tally))
    }
}
