import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import HTTPTypes
import Hummingbird
import SAMIContract

/// The route of one push source (`PushSource`): `POST {prefix}{secret}`, the link `hmon link add KIND`
/// prints, whose secret stands for its user, so the app needs no other header. With the source's
/// `takesBearerToken`, also `POST {prefix without its slash}` with a writer's Bearer token.
///
/// The answers are chosen for the apps, which retry on 5xx, 408 and 429 and not on other 4xx: a wrong or
/// revoked link is a 404 before any of the body is read; a link with a signing secret takes a body only
/// with its `X-Signature`, else 401 and nothing is kept; a body past the source's limit a 413; a body that
/// is no payload a 400 naming the problem; a payload with some records hmon refuses a 200 that counts them,
/// with why, so the app does not send the rest again and again. Only the store's own failures are 5xx,
/// which the app rightly retries.
struct PushRoutes<Source: PushSource> {
    let links: any PushLinkStore
    let services: UserServices
    let configuration: ServerConfiguration

    func add(to router: Router<ServerContext>) {
        router.post(RouterPath(Source.prefix + ":secret")) { request, context in
            let secret = context.parameters.get("secret") ?? ""
            guard let holder = try await links.pushLinkHolder(secret: secret, kind: Source.kind, now: configuration.clock()) else {
                throw APIError(.notFound, code: 404, message: "This is not an hmon \(Source.appName) link (or it was revoked): "
                               + "run `hmon link add \(Source.kind.rawValue)` for a new one.")
            }
            // Any link made with a signing secret is checked, whatever its kind: the store keeps the secret with
            // the link; a link made before it did may have it in a file of this server's data folder.
            let signingSecret = try holder.signingSecret
                ?? configuration.pushSigningSecrets?.signingSecret(secretHash: Secrets.sha256Hex(secret))
            return try await receive(request, userID: holder.userID, link: holder, signingSecret: signingSecret)
        }
        if Source.takesBearerToken {
            router.post(RouterPath(String(Source.prefix.dropLast()))) { request, context in
                guard let principal = context.principal else { throw APIError.unauthorized }
                guard let userID = principal.userID, principal.scopes.contains(Scope.write), !principal.isPersonal else {
                    throw APIError.forbidden
                }
                return try await receive(request, userID: userID, link: nil, signingSecret: nil)
            }
        }
    }

    private func receive(_ request: Request, userID: String, link: PushLinkHolder?, signingSecret: String?) async throws -> Response {
        var signature = signingSecret.map(PushSignature.Check.init(secret:))
        let body = try await Source.Body.read(request, limit: Source.maxBodyBytes) { signature?.update($0) }
        defer { body.discard() }
        // Checked before the body is decoded at all: an unsigned body keeps nothing.
        if let signature, !signature.isValid(request.headers[HTTPField.Name(PushSignature.header)!]) {
            throw APIError(.unauthorized, code: SAMI.ErrorCode.unauthorized, message: Self.wrongSignature)
        }
        // Runs once `keep(_:userID:link:)` has returned, so what a large payload decoded to is freed by then.
        defer { if body.byteCount >= FreedMemory.worthGivingBack { FreedMemory.giveBackSoon() } }
        return try await keep(body, userID: userID, link: link)
    }

    /// The body decoded and kept; what it decoded to lives only as long as this call.
    private func keep(_ body: Source.Body, userID: String, link: PushLinkHolder?) async throws -> Response {
        do {
            let payload = try await Source.payload(of: body)
            // The link stands for its user: that user's dashboards hear of what it writes (`ChangeFeed`).
            if Source.writes(payload) { ChangeFeedMiddleware.wrote(for: userID) }
            let delivery = PushDelivery(userID: userID, link: link, links: links, now: configuration.clock())
            let answer = try await Source.keep(payload, service: services.service(for: userID), delivery: delivery)
            if let link { await note(Source.arrival(of: answer), link: link) }
            return JSONBody.response(answer)
        } catch let error as PushBodyProblem {
            if let link { await note(.refused(error.problem), link: link) }
            // The message itself names the problem too: the app's activity log shows it.
            throw APIError(.badRequest, code: SAMI.ErrorCode.validation, message: error.problem,
                           errors: [[SAMI.ErrorEnvelope.FieldProblem(field: "body", messages: [error.problem])]])
        } catch let error as HealthError {
            throw APIError.from(error)
        }
    }

    /// Notes what came for the sync doctor. Its own failure is not the push's: the readings are kept, and an
    /// app answered 5xx would send them again.
    private func note(_ arrival: LinkArrival, link: PushLinkHolder) async {
        try? await links.noteArrival(arrival, linkID: link.linkID, at: configuration.clock())
    }

    /// The 401's message: where the app takes the link's signing secret, when it can.
    static var wrongSignature: String {
        switch Source.signing {
        case .byTheApp(let setting):
            "The body's X-Signature is missing or wrong: set the link's signing secret in the app (\(setting))."
        case .notByTheApp:
            "The body's X-Signature is missing or wrong: this link was made with a signing secret."
        }
    }
}
