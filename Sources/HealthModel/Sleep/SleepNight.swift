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
    /// When its first stretch began (the bed time, or the first stage), ms since the epoch; nil for a night
    /// kept before hmon kept it.
    public var startMs: Int64?
    /// Its stages against the clock, when every stretch of it came with its intervals (samples, or a session's
    /// timed stages); nil for a night of totals alone, whose measures come from its window.
    public var hypnogram: Hypnogram?

    public init(day: Day, endMs: Int64, source: String, minutes: [ReadingKind: Double], startMs: Int64? = nil,
                hypnogram: Hypnogram? = nil) {
        self.day = day
        self.endMs = endMs
        self.source = source
        self.minutes = minutes
        self.startMs = startMs
        self.hypnogram = hypnogram
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
    /// The stretch's stages with their times, when the source sends them (Health Connect's timed stages, the
    /// session itself as in bed): they draw the night's hypnogram, and never change its figures.
    public var intervals: [SleepSample]?

    public init(startMs: Int64, endMs: Int64, source: String, minutes: [ReadingKind: Double], intervals: [SleepSample]? = nil) {
        self.startMs = startMs
        self.endMs = endMs
        self.source = source
        self.minutes = minutes
        self.intervals = intervals
    }
}
