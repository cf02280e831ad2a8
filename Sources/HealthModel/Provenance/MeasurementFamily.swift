import Foundation

/// Readings two sources can both hold as one measurement, and when two readings are the same one.
public enum MeasurementFamily: String, Sendable, CaseIterable, Codable {
    /// A weigh-in: the same weight within half a scale's display step (0.05 kg), within two minutes. A
    /// Bluetooth scale's app writes the weigh-in to Health Connect as it keeps it, seconds apart at most,
    /// and a float carried through JSON differs from its double by far less than 0.05 kg.
    case weight
    /// A night: two accounts of sleep whose spans (time in bed, else time asleep, up to its end) overlap.
    case sleep

    public var label: String {
        switch self {
        case .weight: "weigh-ins"
        case .sleep: "nights"
        }
    }

    /// The ways that bring readings of the family: what its order lists and a person can prefer.
    public var ways: [ReadingPath] {
        switch self {
        case .weight: ReadingPath.defaultOrder.filter { $0 != .oura }
        case .sleep: ReadingPath.defaultOrder.filter { $0 != .openScale && $0 != .withings }
        }
    }

    /// The fields that make a reading one of the family (any of them, as a number): what a store finds its
    /// readings by.
    public var fields: [String] {
        switch self {
        case .weight: [Field.weight]
        case .sleep: [Field.sleepMinutes, Field.inBedMinutes]
        }
    }

    /// The family a reading belongs to, from its fields; nil for readings no two sources share as one.
    public static func of(_ data: [String: FieldValue]) -> MeasurementFamily? {
        allCases.first { family in family.fields.contains { data[$0]?.number != nil } }
    }

    /// How far apart (ms) the stamps of two readings of the family can be and still be one: the window a
    /// store is asked for the readings that could be the same as one. A night is at most a day long.
    public var reach: Int64 {
        switch self {
        case .weight: 120_000
        case .sleep: 86_400_000
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
        }
    }

    /// A night's span: its stamp is its end (`SleepNight.endMs`), its length the time in bed, else asleep.
    private static func span(_ night: (ts: Int64, data: [String: FieldValue])) -> (start: Int64, end: Int64) {
        let minutes = night.data[Field.inBedMinutes]?.number ?? night.data[Field.sleepMinutes]?.number ?? 0
        let length = Int64((max(0, min(minutes, 1_440)) * 60_000).rounded())
        return (night.ts - max(length, 1), night.ts)
    }
}
