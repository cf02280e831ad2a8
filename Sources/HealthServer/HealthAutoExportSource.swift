import Foundation
import HealthCore
import HealthFormats
import HealthModel

/// The Health Auto Export iPhone app's REST API automation, posting Apple Health data (`PushRoutes`):
/// `POST /health-auto-export/{secret}`, the link `hmon link add health-auto-export` prints, or
/// `POST /health-auto-export` with `Authorization: Bearer <token>` of a user with the `write` scope.
///
/// The body is spooled to a temporary file (`BodySpool`, up to 256 MB) and read from there by the store's
/// import, in one transaction: the readings land as `hmon import` puts the same Apple Health samples, with
/// the same ids, so a re-sent period or a later import of the phone's export adds nothing twice. A
/// malformed body keeps nothing and is a 400 naming the place (`data.metrics[3].data[17].date: …`).
struct HealthAutoExportSource: PushSource {
    static let kind = PushLinkKind.healthAutoExport
    static let prefix = "/health-auto-export/"
    static let appName = "Health Auto Export"
    static let maxBodyBytes = ServerLimits.healthAutoExportMaxBodyBytes
    static let signing = PushSigning.notByTheApp(
        why: "Health Auto Export cannot sign its posts (it sends only the fixed headers entered in the automation)")
    static let takesBearerToken = true

    /// Where payloads are imported, one at a time (a store takes one writer at a time anyway).
    static let importExecutor = BlockingWorkExecutor(label: "hmon.health-auto-export.import")

    /// The spooled body itself, once it looks like the app's JSON: the import reads it while it stores it.
    static func payload(of spool: BodySpool) throws -> BodySpool {
        // What the store's import would read the file as: only the app's JSON is taken here, never an
        // export.xml or a CSV posted to the wrong address.
        guard ImportFormat.detect(spool.head(4096)) == .healthAutoExportJSON else {
            throw APIError.validation("body", spool.size == 0 ? "is empty: send the app's JSON"
                                              : "must be a JSON object, {\"data\": {\"metrics\": […]}}: set the automation's Export Format to JSON")
        }
        return spool
    }

    static func keep(_ spool: BodySpool, service: LocalHealthService, delivery: PushDelivery) async throws -> HealthAutoExportAnswer {
        let now = delivery.now
        do {
            // On a queue of its own: SQLite's import blocks its thread while the payload's transaction runs.
            let url = spool.url
            let result = try await withTaskExecutorPreference(importExecutor) {
                try await service.importFile(url, timeZone: .current, now: now)
            }
            return HealthAutoExportAnswer(result.tally)
        } catch let error as ImportError {
            // Nothing of the payload was kept: the import is one transaction. The problem names its place.
            throw PushBodyProblem(problem: error.problem)
        }
    }

    static func arrival(of answer: HealthAutoExportAnswer) -> LinkArrival {
        var readings: [String: Int] = [:]
        for metric in answer.metrics.values { readings[metric.keptAs, default: 0] += metric.added }
        return LinkArrival(readings: readings, refusals: LinkArrival.lines(answer.refusedReasons))
    }
}
