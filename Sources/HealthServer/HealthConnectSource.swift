import Foundation
import HealthConnectors
import HealthCore

/// An Android app posting Health Connect records (`PushRoutes`): `POST /health-connect/{secret}`, the link
/// `hmon link add health-connect` prints. Life Dashboard Companion's and HC Webhook's payloads are both
/// taken, told apart by shape (`HealthConnectPayload`); a record's own `uuid` makes one sent again add
/// nothing and an edited one change its reading (`HealthConnectArrival`).
///
/// A first sync may post a backfill of 32 MB, hundreds of thousands of records: the body is spooled to a
/// file (`BodySpool`) and mapped, not held, while it is read record by record; payloads are read and kept one
/// at a time, on a queue of their own, so two such batches never hold their records at once and the seconds
/// a large one takes never hold one of Swift's cooperative threads.
struct HealthConnectSource: PushSource {
    static let kind = PushLinkKind.healthConnect
    static let prefix = "/health-connect/"
    static let appName = "Health Connect"
    static let maxBodyBytes = ServerLimits.healthConnectMaxBodyBytes
    /// Life Dashboard Companion signs each body when given the link's signing secret.
    static let signing = PushSigning.byTheApp(setting: "Webhook Headers → HMAC signing secret")

    /// Where payloads are read and kept, one at a time.
    static let executor = BlockingWorkExecutor(label: "hmon.health-connect")

    static func payload(of spool: BodySpool) async throws -> HealthConnectPayload {
        // An empty file is not mapped; the words are the payload's own for an empty body.
        guard spool.size > 0 else { throw PushBodyProblem(problem: "body is empty: send the app's JSON") }
        let url = spool.url
        return try await withTaskExecutorPreference(executor) {
            try await decode(url)
        }
    }

    static func keep(_ payload: HealthConnectPayload, service: LocalHealthService, delivery: PushDelivery) async throws -> HealthConnectAnswer {
        let tally = try await withTaskExecutorPreference(executor) {
            try await HealthConnectArrival.store(payload.readings, service: service, userID: delivery.userID, sentAt: payload.sentAt,
                                                 now: delivery.now)
        }
        return HealthConnectAnswer(payload: payload, tally: tally)
    }

    static func arrival(of answer: HealthConnectAnswer) -> LinkArrival {
        LinkArrival(readings: answer.kinds.mapValues { $0.added + $0.changed }, refusals: answer.refusals)
    }

    /// Nonisolated and async, so it runs on the executor preferred by its caller (`executor`).
    private static func decode(_ url: URL) async throws -> HealthConnectPayload {
        // Mapped: the body's pages are the file's, dropped once the payload is read.
        let body = try Data(contentsOf: url, options: .alwaysMapped)
        do {
            return try HealthConnectPayload(json: body, calendar: .current)
        } catch {
            throw PushBodyProblem(problem: error.problem)
        }
    }
}
