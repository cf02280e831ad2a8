import Foundation

/// Readings two sources can both hold as one measurement, and when two readings are the same one.
public enum MeasurementFamily: String, Sendable, CaseIterable, Codable {
    /// A weigh-in: the same weight within half a scale's display step (0.05 kg), within two minutes. A
    /// Bluetooth scale's app writes the weigh-in to Health Connect as it keeps it, seconds apart at most,
    /// and a float carried through JSON differs from its double by far less than 0.05 kg.
    case weight
    /// A night: two accounts of sleep whose spans (time in bed, else time asleep, up to its end) overlap.
    case sleep
    /// A day's steps, active energy or resting energy: what two ways bring of one kind on one local day is the
    /// same day counted twice (a phone hub's daily total beside a watch export's, or beside its own records
    /// relayed by another hub), so the day takes every reading of the first way in the order and none of the
    /// others'. Days, not single readings, are compared: one way sends a running total, another the records
    /// it adds up, and no reading of one matches a reading of the other.
    case steps
    case activeEnergy = "active-energy"
    case restingEnergy = "resting-energy"

    public var label: String {
        switch self {
        case .weight: "weigh-ins"
        case .sleep: "nights"
        case .steps: "steps per day"
        case .activeEnergy: "active energy per day"
        case .restingEnergy: "resting energy per day"
        }
    }

    /// Whether the family is settled a local day at a time (`DuplicateSettling`), not a reading at a time.
    public var isDayTotal: Bool {
        switch self {
        case .weight, .sleep: false
        case .steps, .activeEnergy, .restingEnergy: true
        }
    }

    /// The ways that bring readings of the family: what its order lists and a person can prefer.
    public var ways: [ReadingPath] {
        ReadingPath.defaultOrder.filter { $0.brings.contains(self) }
    }

    /// The fields that make a reading one of the family (any of them, as a number): what a store finds its
    /// readings by.
    public var fields: [String] {
        switch self {
        case .weight: [Field.weight]
        case .sleep: [Field.sleepMinutes, Field.inBedMinutes]
        case .steps: [Field.steps]
        case .activeEnergy: [Field.activeEnergy]
        case .restingEnergy: [Field.basalEnergy]
        }
    }

    /// The family a reading belongs to, from its fields; nil for readings no two sources share as one.
    public static func of(_ data: [String: FieldValue]) -> MeasurementFamily? {
        allCases.first { family in family.fields.contains { data[$0]?.number != nil } }
    }

    /// How far apart (ms) the stamps of two readings of the family can be and still be one: the window a
    /// store is asked for the readings that could be the same as one. A night is at most a day long; a day
    /// family is asked for whole local days instead (`isDayTotal`).
    public var reach: Int64 {
        switch self {
        case .weight: 120_000
        case .sleep, .steps, .activeEnergy, .restingEnergy: 86_400_000
        }
    }

    static let weightResolution = 0.05

    /// Whether `one` and `other`, both of this family, are the same measurement.
    public func same(_ one: (ts: Int64, data: [String: FieldValue]), _ other: (ts: Int64, data: [String: FieldValue])) -> Bool {
        switch self {
        case .weight:
            guard let a = one.data[Field.weight]?.number, let b = other.data[Field.weight]?.number else { return false }
            return abs(one.ts - other.ts) <= reach && abs(a - b) <= Self.weightResolution + 1e-9
        case .sleep:
            let a = Self.span(one), b = Self.span(other)
            return a.start < b.end && b.start < a.end
        case .steps, .activeEnergy, .restingEnergy:
            return false   // settled by the day (`DuplicateSettling`), never reading by reading
        }
    }

    /// A night's span: its stamp is its end (`SleepNight.endMs`), its length the time in bed, else asleep.
    private static func span(_ night: (ts: Int64, data: [String: FieldValue])) -> (start: Int64, end: Int64) {
        let minutes = night.data[Field.inBedMinutes]?.number ?? night.data[Field.sleepMinutes]?.number ?? 0
        let length = Int64((max(0, min(minutes, 1_440)) * 60_000).rounded())
        return (night.ts - max(length, 1), night.ts)
    }
}
