import Foundation

/// A night's sleep as hmon keeps it: the day it belongs to (the day it ends), when its last stretch
/// ended, the device it is named after, and its minutes per kind (`ReadingKind.sleep` asleep,
/// `timeInBed`, and the stages `deepSleep`, `remSleep`, `coreSleep`, `sleepAwake`). A kind no sample
/// named is absent, not zero: a watch without stages says nothing about deep sleep.
public struct SleepNight: Sendable, Equatable {
    public var day: Day
    public var endMs: Int64
    public var source: String
    public var minutes: [ReadingKind: Double]

    public init(day: Day, endMs: Int64, source: String, minutes: [ReadingKind: Double]) {
        self.day = day
        self.endMs = endMs
        self.source = source
        self.minutes = minutes
    }

    /// The kind the night is stored under: time asleep, or time in bed for a night only a phone's
    /// schedule saw. The other figures ride along in the same reading.
    public var mainKind: ReadingKind? {
        if minutes[.sleep] != nil { return .sleep }
        if minutes[.timeInBed] != nil { return .timeInBed }
        return nil
    }
}

/// One device's account of one stretch of sleep in figures, when the source sends totals rather than
/// samples (Health Auto Export's aggregated `sleep_analysis`): its window, source and minutes per kind.
public struct SleepSummary: Sendable, Equatable {
    public var startMs: Int64
    public var endMs: Int64
    public var source: String
    public var minutes: [ReadingKind: Double]

    public init(startMs: Int64, endMs: Int64, source: String, minutes: [ReadingKind: Double]) {
        self.startMs = startMs
        self.endMs = endMs
        self.source = source
        self.minutes = minutes
    }
}
