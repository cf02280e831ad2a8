import HealthCore
import HealthFormats
import HealthModel

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
