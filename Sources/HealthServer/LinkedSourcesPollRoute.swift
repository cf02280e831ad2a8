import Foundation
import HealthCore
import Hummingbird

/// `POST /v1.1/hmon/links/poll`: reads every linked source of the caller now (a remote dashboard's R), in
/// one request however many kinds of link the server reads; answers what each added. A kind the server
/// was started without (no Withings or Oura settings) is absent from the answer.
struct LinkedSourcesPollRoute: Sendable {
    let withings: WithingsPolling?
    let oura: OuraPolling?

    func add(to router: Router<ServerContext>) {
        router.post("/v1.1/hmon/links/poll") { _, context -> Response in
            guard let principal = context.principal else { throw APIError.unauthorized }
            guard let userID = principal.userID, principal.scopes.contains(Scope.read) else { throw APIError.forbidden }
            var answer = LinkedSourcesPollAnswer(added: 0)
            if let withings {
                answer.withings = try await PulledLinkRoutes.poll(withings, userID: userID)
                answer.added += answer.withings?.added ?? 0
            }
            if let oura {
                answer.oura = try await PulledLinkRoutes.poll(oura, userID: userID)
                answer.added += answer.oura?.added ?? 0
            }
            return JSONBody.response(answer)
        }
    }
}

/// The answer of `POST /v1.1/hmon/links/poll`: the readings added in all, and each kind's own answer.
struct LinkedSourcesPollAnswer: Encodable {
    var added: Int
    var withings: WithingsPollAnswer?
    var oura: OuraPollAnswer?
}
