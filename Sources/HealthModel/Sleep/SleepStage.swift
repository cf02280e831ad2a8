import Foundation

/// What a sleep sample says a stretch of the night was. Apple Health's sleep analysis has these six
/// values; a watch writes the stages and awake, a phone's sleep schedule writes in bed, and watches before
/// sleep stages wrote "asleep" without a stage (`unspecified`).
public enum SleepStage: String, Codable, Sendable, CaseIterable, Hashable {
    case inBed, awake, core, deep, rem, unspecified

    /// Whether the stretch counts as time asleep: every stage but awake and in bed.
    public var isAsleep: Bool {
        switch self {
        case .core, .deep, .rem, .unspecified: true
        case .inBed, .awake: false
        }
    }

    /// The stage an Apple Health export's `value` names (`HKCategoryValueSleepAnalysisAsleepCore`); nil for
    /// a value hmon does not know. `HKCategoryValueSleepAnalysisAsleep` is the value before stages.
    public init?(appleHealthValue value: String) {
        switch value {
        case "HKCategoryValueSleepAnalysisInBed": self = .inBed
        case "HKCategoryValueSleepAnalysisAwake": self = .awake
        case "HKCategoryValueSleepAnalysisAsleepCore": self = .core
        case "HKCategoryValueSleepAnalysisAsleepDeep": self = .deep
        case "HKCategoryValueSleepAnalysisAsleepREM": self = .rem
        case "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleep": self = .unspecified
        default: return nil
        }
    }

    /// The stage Health Auto Export names in a sample it did not aggregate (`"value": "Core"`); nil for
    /// a value hmon does not know.
    public init?(healthAutoExportValue value: String) {
        switch value.lowercased().replacingOccurrences(of: " ", with: "") {
        case "inbed": self = .inBed
        case "awake": self = .awake
        case "core", "light": self = .core
        case "deep": self = .deep
        case "rem": self = .rem
        case "asleep", "unspecified": self = .unspecified
        default: return nil
        }
    }
}
