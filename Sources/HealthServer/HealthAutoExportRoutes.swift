import Foundation
import HealthCore
import HealthFormats
import SAMIContract
import HealthModel
import Hummingbird
import NIOCore

/// Where the Health Auto Export app's REST API automation posts Apple Health data:
/// - `POST /health-auto-export/{secret}`: the link `hmon link add health-auto-export` prints; the secret
///   stands for its user, so the app needs no other header. A wrong or revoked one is a 404, before any of
///   the body is read.
/// - `POST /health-auto-export` with `Authorization: Bearer <token>` of a user with the `write` scope.
///
/// The body is spooled to a temporary file (`BodySpool`, up to 256 MB) and read from there by the store's
/// import, in one transaction: the readings land as `hmon import` puts the same Apple Health samples, with
/// the same ids, so a re-sent period or a later import of the phone's export adds nothing twice. A
/// malformed body keeps nothing and is a 400 naming the place (`data.metrics[3].data[17].date: …`).
struct HealthAutoExportRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = "/health-auto-export/"

    let links: any PushLinkStore
    let services: UserServices
    let configuration: ServerConfiguration

    func add(to router: Router<ServerContext>) {
        router.post("/health-auto-export/:secret") { request, context in
            let secret = context.parameters.get("secret") ?? ""
            guard let userID = try await links.pushLinkUser(secret: secret, kind: .healthAutoExport, now: configuration.clock()) else {
                throw APIError(.notFound, code: 404,
                               message: "This is not an hmon Health Auto Export link (or it was revoked): run `hmon link add health-auto-export` for a new one.")
            }
            return try await receive(request, userID: userID)
        }
        router.post("/health-auto-export") { request, context in
            guard let principal = context.principal else { throw APIError.unauthorized }
            guard let userID = principal.userID, principal.scopes.contains(Scope.write), !principal.isPersonal else {
                throw APIError.forbidden
            }
            return try await receive(request, userID: userID)
        }
    }

    /// Where payloads are imported, one at a time (a store takes one writer at a time anyway).
    static let importExecutor = BlockingWorkExecutor(label: "hmon.health-auto-export.import")

    private func receive(_ request: Request, userID: String) async throws -> Response {
        // The link stands for its user: that user's dashboards hear of what it writes (`ChangeFeed`).
        ChangeFeedMiddleware.wrote(for: userID)
        let spool = try await BodySpool.write(request, limit: ServerLimits.healthAutoExportMaxBodyBytes)
        defer { spool.remove() }
        // What the store's import would read the file as: only the app's JSON is taken here, never an
        // export.xml or a CSV posted to the wrong address.
        guard ImportFormat.detect(spool.head(4096)) == .healthAutoExportJSON else {
            throw APIError.validation("body", spool.size == 0 ? "is empty: send the app's JSON"
                                              : "must be a JSON object, {\"data\": {\"metrics\": […]}}: set the automation's Export Format to JSON")
        }
        let result: ImportResult
        do {
            // On a queue of its own: SQLite's import blocks its thread while the payload's transaction runs.
            let (service, url, now) = (services.service(for: userID), spool.url, configuration.clock())
            result = try await withTaskExecutorPreference(Self.importExecutor) {
                try await service.importFile(url, timeZone: .current, now: now)
            }
        } catch let error as ImportError {
            // Nothing of the payload was kept: the import is one transaction. The problem names its place, in
            // the message itself too, which the app's activity log shows.
            throw APIError(.badRequest, code: SAMI.ErrorCode.validation, message: error.problem,
                           errors: [[SAMI.ErrorEnvelope.FieldProblem(field: "body", messages: [error.problem])]])
        } catch let error as HealthError {
            throw APIError.from(error)
        }
        return JSONBody.response(HealthAutoExportAnswer(result.tally))
    }
}

/// The answer to a payload: per metric kept, what was added and what the store already had; what was
/// refused, and why; the metrics hmon does not keep, by name, with their count of data points.
struct HealthAutoExportAnswer: Encodable {
    struct Metric: Encodable {
        var keptAs: String
        var added: Int
        var alreadyThere: Int
        var refused: Int
    }

    var added: Int
    var alreadyThere: Int
    var refused: Int
    var metrics: [String: Metric]
    /// Why each refused point was refused ("weight_body_mass: weight outside 1–650 kg"), with how many.
    var refusedReasons: [String: Int]
    /// Metrics hmon does not keep, with their data points' count ("heart_rate": 1440).
    var skipped: [String: Int]
    /// Readings added per device, by its name.
    var addedTo: [String: Int]

    init(_ tally: ImportTally) {
        added = tally.addedTotal
        alreadyThere = tally.alreadyThereTotal
        refused = tally.skippedReasonsTotal
        refusedReasons = tally.skippedReasons
        skipped = tally.skippedKinds
        addedTo = tally.addedByDevice
        var metrics: [String: Metric] = [:]
        // Refusals counted by kind, whoever refused them (the payload's reader, or the store's time check,
        // whose reason names no metric), so the metrics' counts add up to the answer's `refused`.
        for kind in Set(tally.kept.keys).union(tally.added.keys).union(tally.alreadyThere.keys).union(tally.skippedByKind.keys) {
            guard let name = HealthAutoExportMetrics.name(of: kind) else { continue }
            metrics[name] = Metric(keptAs: kind.importLabel, added: tally.added[kind] ?? 0, alreadyThere: tally.alreadyThere[kind] ?? 0,
                                   refused: tally.skippedByKind[kind] ?? 0)
        }
        self.metrics = metrics
    }
}
