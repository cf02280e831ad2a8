import Foundation
import HealthModel

/// Apple Health keeps a blood pressure as two quantity samples, systolic and diastolic, joined by a
/// correlation; hmon keeps one measurement as one reading. Each half waits here, by its source and time,
/// until the other comes (they are next to each other in an export), and the pair leaves as one systolic
/// reading with the diastolic beside it. A half that never finds its other (a lone diastolic typed by
/// hand) leaves alone at the end, under its own kind.
struct BloodPressurePairs {
    private struct Moment: Hashable {
        var source: String
        var timestamp: Int64
    }

    private var systolic: [Moment: Double] = [:]
    private var diastolic: [Moment: Double] = [:]

    /// Takes a half; answers the whole reading when this half completes a pair.
    mutating func add(_ reading: ImportedReading) -> ImportedReading? {
        let moment = Moment(source: reading.source, timestamp: reading.timestamp)
        if reading.kind == .bloodPressureSystolic {
            guard let lower = diastolic.removeValue(forKey: moment) else {
                systolic[moment] = reading.value
                return nil
            }
            return Self.pair(reading, diastolic: lower)
        }
        guard let upper = systolic.removeValue(forKey: moment) else {
            diastolic[moment] = reading.value
            return nil
        }
        return Self.pair(ImportedReading(kind: .bloodPressureSystolic, source: reading.source, timestamp: reading.timestamp, value: upper),
                         diastolic: reading.value)
    }

    /// The halves that found no other, each alone, in time order.
    mutating func unpaired() -> [ImportedReading] {
        let alone = systolic.map { ImportedReading(kind: .bloodPressureSystolic, source: $0.key.source, timestamp: $0.key.timestamp, value: $0.value) }
            + diastolic.map { ImportedReading(kind: .bloodPressureDiastolic, source: $0.key.source, timestamp: $0.key.timestamp, value: $0.value) }
        systolic = [:]
        diastolic = [:]
        return alone.sorted { ($0.timestamp, $0.kind.name) < ($1.timestamp, $1.kind.name) }
    }

    private static func pair(_ upper: ImportedReading, diastolic: Double) -> ImportedReading {
        var whole = upper
        whole.extras[Field.diastolic] = diastolic
        return whole
    }
}
