import Foundation
import HealthConnectors
import HealthCore

/// An Android app posting Health Connect records (`PushRoutes`): `POST /health-connect/{secret}`, the link
/// `hmon link add health-connect` prints. Life Dashboard Companion's and HC Webhook's payloads are both
/// taken, told apart by shape (`HealthConnectPayload`); a record's own `uuid` makes one sent again add
/// nothing and an edited one change its reading (`HealthConnectArrival`).
struct HealthConnectSource: PushSource {
    static let kind = PushLinkKind.healthConnect
    static let prefix = "/health-connect/"
    static let appName = "Health Connect"
    static let maxBodyBytes = ServerLimits.healthConnectMaxBodyBytes
    /// Life Dashboard Companion signs each body when given the link's signing secret.
    static let signing = PushSigning.byTheApp(setting: "Webhook Headers → HMAC signing secret")

    static func payload(of body: Data) throws -> HealthConnectPayload {
        do {
            return try HealthConnectPayload(json: body, calendar: .current)
        } catch {
            throw PushBodyProblem(problem: error.problem)
        }
    }

    static func keep(_ payload: HealthConnectPayload, service: LocalHealthService, delivery: PushDelivery) async throws -> HealthConnectAnswer {
        let tally = try await HealthConnectArrival.store(payload.readings, service: service, userID: delivery.userID, sentAt: payload.sentAt,
                                                         now: delivery.now)
        return HealthConnectAnswer(payload: payload, tally: tally)
    }
}
