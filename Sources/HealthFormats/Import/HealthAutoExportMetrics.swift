import Foundation
import HealthCore
import HealthModel

/// The Health Auto Export app's metric names that hmon keeps, and what each becomes: the kinds' table
/// (`ReadingSource.healthAutoExport`) names them.
///
/// The names and units are the app's, as its JSON format documents them
/// (https://github.com/Lybron/health-auto-export/wiki/API-Export---JSON-Format: `name`, `units`,
/// `data: [{qty, date, source}]`, dates `yyyy-MM-dd HH:mm:ss Z`); each is one Apple Health quantity type,
/// the one `hmon import` reads from an export.xml's `Record` of the kind's Apple Health type. The app
/// writes a heart rate's unit as `count/min` or `bpm`, and body fat as a percentage (18.2), where
/// export.xml writes a fraction (0.182).
public enum HealthAutoExportMetrics {
    public static let kept: [String: ReadingKind] = Dictionary(uniqueKeysWithValues: ReadingKind.allCases.compactMap { kind in
        kind.sources[.healthAutoExport].map { ($0.key, kind) }
    })

    /// The metric name a kind is kept from, for the answer.
    public static func name(of kind: ReadingKind) -> String? {
        kind.sources[.healthAutoExport]?.key
    }

    /// `qty` in `units` as hmon's unit for `kind`; nil for a unit hmon does not know.
    static func converted(_ qty: Double, for kind: ReadingKind, units: String) -> Double? {
        UnitConversion.converted(qty, for: kind, unit: units, from: .healthAutoExport)
    }
}
