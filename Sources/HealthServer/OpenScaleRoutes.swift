import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Hummingbird
import SAMIContract

/// Where openScale-sync posts (`POST /openscale/{secret}`, the link `hmon link add openscale` prints; the
/// secret stands for its user): each change of the scale app's database, so hmon stays in step with it
/// (`OpenScaleEvent`, `OpenScaleArrival`). A wrong or revoked link is a 404; a body that is no event a 400
/// naming the problem; a `test` a 200 that keeps nothing.
struct OpenScaleRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = "/openscale/"
    /// A bulk post of a long history is at most a few MB.
    static let maxBodyBytes = 16 * 1024 * 1024

    let links: any PushLinkStore
    let services: UserServices
    let configuration: ServerConfiguration

    func add(to router: Router<ServerContext>) {
        router.post("/openscale/:secret") { request, context in
            let secret = context.parameters.get("secret") ?? ""
            guard let userID = try await links.pushLinkUser(secret: secret, kind: .openScale, now: configuration.clock()) else {
                throw APIError(.notFound, code: 404,
                               message: "This is not an hmon openScale link (or it was revoked): run `hmon link add openscale` for a new one.")
            }
            let body = try await request.body.collect(upTo: Self.maxBodyBytes)
            let event: OpenScaleEvent
            do {
                event = try OpenScaleEvent(json: Data(body.readableBytesView))
            } catch let error as OpenScaleEventError {
                throw APIError(.badRequest, code: SAMI.ErrorCode.validation, message: error.problem,
                               errors: [[SAMI.ErrorEnvelope.FieldProblem(field: "body", messages: [error.problem])]])
            }
            if event != .test { ChangeFeedMiddleware.wrote(for: userID) }
            do {
                let tally = try await OpenScaleArrival.apply(event, service: services.service(for: userID), userID: userID,
                                                             now: configuration.clock())
                return JSONBody.response(tally)
            } catch let error as HealthError {
                throw APIError.from(error)
            }
        }
    }
}
