import HealthConnectors
import HealthCore
import HealthModel

/// The answer to a Health Connect payload: per kind kept, what was added, what the store already had and
/// what changed; what was refused and why; the arrays hmon does not keep, by name, with why; the raw records
/// left out because their day's `daily_totals` figure was kept instead.
struct HealthConnectAnswer: Encodable {
    struct Kind: Encodable {
        var added: Int
        var alreadyThere: Int
        var changed: Int
    }

    var app: HealthConnectApp
    var added: Int
    var alreadyThere: Int
    var changed: Int
    var refused: Int
    /// Records whose reading was written after this payload was sent (a body sent again): left as they are.
    var stale: Int
    /// By hmon's name of the kind ("weight", "activeEnergy").
    var kinds: [String: Kind]
    /// Why each refused record was refused ("weight: weight 700 is outside 1–650"), with how many.
    var refusedReasons: [String: Int]
    /// The refused records one by one, as the payload names them (`weight[2] (uuid bad-1): before 2000`);
    /// the first `ArrivalRefusal.listedAtMost`.
    var refusals: [String]
    /// Arrays not kept: `"sleep": {"records": 1, "why": "not kept yet"}`.
    var skipped: [String: SkippedRecords]
    /// Raw records and buckets of days that had a `daily_totals` figure, by array.
    var coveredByDailyTotals: [String: Int]
    /// Readings an earlier payload kept from records, taken back as their day's total came, by kind.
    var replacedByDailyTotals: [String: Int]

    init(payload: HealthConnectPayload, tally: HealthConnectTally) {
        app = payload.app
        added = tally.added.values.reduce(0, +)
        alreadyThere = tally.alreadyThere.values.reduce(0, +)
        changed = tally.changed.values.reduce(0, +)
        stale = tally.stale.values.reduce(0, +)
        var reasons = payload.refused
        for refusal in tally.refusals {
            let array = refusal.record.prefix { $0 != "[" && $0 != " " }
            reasons["\(array): \(refusal.why)", default: 0] += 1
        }
        refused = reasons.values.reduce(0, +)
        refusedReasons = reasons
        refusals = (payload.refusals + tally.refusals).prefix(ArrivalRefusal.listedAtMost).map(\.text)
        skipped = payload.skipped
        coveredByDailyTotals = payload.coveredByDailyTotals
        replacedByDailyTotals = Dictionary(uniqueKeysWithValues: tally.replacedByDayTotal.map { ($0.key.name, $0.value) })
        var kinds: [String: Kind] = [:]
        for kind in Set(tally.added.keys).union(tally.alreadyThere.keys).union(tally.changed.keys) {
            kinds[kind.name] = Kind(added: tally.added[kind] ?? 0, alreadyThere: tally.alreadyThere[kind] ?? 0, changed: tally.changed[kind] ?? 0)
        }
        self.kinds = kinds
    }
}
