import Foundation

/// One stretch of a night as a device recorded it: its stage, when it started and ended (ms since the
/// epoch) and the device (source) that wrote it.
public struct SleepSample: Sendable, Equatable {
    public var stage: SleepStage
    public var startMs: Int64
    public var endMs: Int64
    public var source: String

    public init(stage: SleepStage, startMs: Int64, endMs: Int64, source: String) {
        self.stage = stage
        self.startMs = startMs
        self.endMs = endMs
        self.source = source
    }
}
