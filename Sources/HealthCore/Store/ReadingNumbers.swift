import Foundation

/// The four numbers `messages` keeps beside a reading's JSON (`weight`, `active_energy`, `calories`,
/// `basal_energy`), so the screens' sums and the weights come from indexes. Both engines derived them once
/// (generated columns, two JSON parses each, plus a JSON check on every row); hmon's writers now give them,
/// as the values they just checked, since SQLite's schema version 14 and PostgreSQL's 15: a field's value
/// when it is a number, nothing otherwise, the rule `Schema.numeric` and `PostgresSchema.numeric` write in
/// SQL for the rows stored before.
struct ReadingNumbers: Sendable, Equatable {
    var weight: Double?
    var activeEnergy: Double?
    var calories: Double?
    var basalEnergy: Double?

    /// The columns, in the order `values` gives them.
    static let columns = "weight, active_energy, calories, basal_energy"

    init(_ data: [String: FieldValue]) {
        weight = data[Field.weight]?.number
        activeEnergy = data[Field.activeEnergy]?.number
        calories = data[Field.calories]?.number
        basalEnergy = data[Field.basalEnergy]?.number
    }

    /// An imported reading's numbers, as `StoredReading.json` stores them (each through `ReadingRules`).
    init(_ reading: ImportedReading) {
        func stored(_ field: String) -> Double? {
            if reading.kind.field == field { return try? ReadingRules.accepted(reading.value, for: reading.kind.fieldSpec) }
            guard let extra = reading.extras[field], let spec = reading.kind.builtInManifest.field(field) else { return nil }
            return try? ReadingRules.accepted(extra, for: spec)
        }
        weight = stored(Field.weight)
        activeEnergy = stored(Field.activeEnergy)
        calories = stored(Field.calories)
        basalEnergy = stored(Field.basalEnergy)
    }

    var values: [Double?] { [weight, activeEnergy, calories, basalEnergy] }
}
