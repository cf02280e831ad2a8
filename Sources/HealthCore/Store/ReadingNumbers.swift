import Foundation
import HealthModel

/// The four numbers `messages` keeps beside a reading's JSON (`weight`, `active_energy`, `calories`,
/// `basal_energy`), so the screens' sums and the weights come from indexes. Both engines derived them once
/// (generated columns, two JSON parses each, plus a JSON check on every row); hmon's writers now give them,
/// as the values they just checked, since SQLite's schema version 14 and PostgreSQL's 15: a field's value
/// when it is a number, nothing otherwise, the rule `Schema.numeric` and `PostgresSchema.numeric` write in
/// SQL for the rows stored before.
package struct ReadingNumbers: Sendable, Equatable {
    package var weight: Double?
    package var activeEnergy: Double?
    package var calories: Double?
    package var basalEnergy: Double?

    /// The columns, in the order `values` gives them.
    package static let columns = "weight, active_energy, calories, basal_energy"

    /// The column each of the four fields is kept in: the stores' per-day sums read these instead of the JSON.
    package static let columnOfField: [String: String] = [
        Field.weight: "weight", Field.activeEnergy: "active_energy", Field.calories: "calories", Field.basalEnergy: "basal_energy",
    ]

    /// None of the four.
    package init() {}

    /// A reading's numbers from its checked fields.
    package init(_ data: [String: FieldValue]) {
        for (field, value) in data { if let number = value.number { note(number, for: field) } }
    }

    /// Keeps `value` when `field` is one of the four; any other field has no column.
    package mutating func note(_ value: Double, for field: String) {
        switch field {
        case Field.weight: weight = value
        case Field.activeEnergy: activeEnergy = value
        case Field.calories: calories = value
        case Field.basalEnergy: basalEnergy = value
        default: break
        }
    }

    package var values: [Double?] { [weight, activeEnergy, calories, basalEnergy] }
}
