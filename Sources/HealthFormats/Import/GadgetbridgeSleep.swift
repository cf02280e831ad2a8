import Foundation
import HealthModel
import CheckedNumbers

/// The nights of a Gadgetbridge database, from two device families' tables, made into `SleepSample`s for
/// `SleepNights` (which counts each minute once and files a night under the day it ends).
///
/// - Xiaomi: `XIAOMI_SLEEP_TIME_SAMPLE` is a night's window (bedtime `TIMESTAMP` to `WAKEUP_TIME`, ms), and
///   `XIAOMI_SLEEP_STAGE_SAMPLE` its stages, each lasting from its time to the next stage or to the wake-up
///   time, as `XiaomiSampleProvider` lays them over the minutes. A window without stages (an older band) is
///   time asleep without a stage.
/// - Mi Band, Amazfit (Huami) and Huawei: the activity samples, a minute each, carry the stage in their kind
///   (`MinuteCoding`); each minute asleep is a minute of its stage.
/// - Garmin: `GARMIN_SLEEP_STAGE_SAMPLE`'s times are upper bounds (`GarminActivitySampleProvider`): a
///   sample's stage is that of the stretch ending at its time, from the sample before it. A gap of more than
///   `garminNightGapMs` between two samples starts a new night, whose first sample only marks its start.
enum GadgetbridgeSleep {
    /// A sample's time and its stage number, ms.
    struct Mark: Sendable {
        var timeMs: Int64
        var code: Int64
    }

    /// How a family's activity samples mark the minutes asleep, from each family's sample provider.
    enum MinuteCoding: Sendable {
        /// `MiBand2SampleProvider` (`MI_BAND_ACTIVITY_SAMPLE`, older Huami firmware): kind 9 light, 11 deep.
        case miBand
        /// `HuamiExtendedSampleProvider`: kind 120 is asleep, REM when `REM_SLEEP & 127` > 55, else deep when
        /// `DEEP_SLEEP & 127` > 42, else light (the provider's thresholds, which match what the band shows).
        case huamiExtended
        /// `HuaweiSampleProvider`: a row is a block from `TIMESTAMP` to `OTHER_TIMESTAMP` (when later; the row
        /// with the earlier other time is its end marker), kind 6 light, 7 deep.
        case huaweiBlocks

        /// The columns read after the activity's own.
        var columns: [String] {
            switch self {
            case .miBand: ["RAW_KIND"]
            case .huamiExtended: ["RAW_KIND", "DEEP_SLEEP", "REM_SLEEP"]
            case .huaweiBlocks: ["RAW_KIND", "OTHER_TIMESTAMP"]
            }
        }

        /// The stretch of sleep a sample at `timeMs` marks, from its kind and the columns after it; nil when
        /// it marks none (awake, not worn, an end marker).
        func stretch(at timeMs: Int64, kind: Int64, _ more: [Int64?]) -> (stage: SleepStage, endMs: Int64)? {
            let minute: Int64 = 60_000
            switch self {
            case .miBand:
                switch kind {
                case 9: return (.core, timeMs + minute)
                case 11: return (.deep, timeMs + minute)
                default: return nil
                }
            case .huamiExtended:
                guard kind == 120 else { return nil }
                if let rem = more.last ?? nil, rem & 127 > 55 { return (.rem, timeMs + minute) }
                if let deep = more.first ?? nil, deep & 127 > 42 { return (.deep, timeMs + minute) }
                return (.core, timeMs + minute)
            case .huaweiBlocks:
                guard let other = more.first ?? nil, let otherMs = Int64(millisecondsFromSeconds: other), otherMs > timeMs,
                      otherMs - timeMs <= longestNightMs else { return nil }
                switch kind {
                case 6: return (.core, otherMs)
                case 7: return (.deep, otherMs)
                default: return nil
                }
            }
        }
    }

    static let garminNightGapMs: Int64 = 4 * 3_600_000
    /// Longer than any night: a window past it is a broken record, not sleep.
    static let longestNightMs: Int64 = 24 * 3_600_000

    /// `SleepDetailsParser.decodeStage`'s numbers: 2 deep, 3 light, 4 REM, 5 awake; 0 (not asleep) and 1
    /// (unknown) are no stretch of a night.
    static func xiaomiStage(_ code: Int64) -> SleepStage? {
        switch code {
        case 2: .deep
        case 3: .core
        case 4: .rem
        case 5: .awake
        default: nil
        }
    }

    /// FIT's sleep levels (`FieldDefinitionSleepStage`): 1 awake, 2 light, 3 deep, 4 REM; 0 (unmeasurable) is none.
    static func garminStage(_ code: Int64) -> SleepStage? {
        switch code {
        case 1: .awake
        case 2: .core
        case 3: .deep
        case 4: .rem
        default: nil
        }
    }

    /// One Xiaomi device's nights: `windows` from its sleep time table, `stages` from its stage table.
    static func addXiaomi(windows: [(startMs: Int64, endMs: Int64)], stages: [Mark], source: String, to nights: inout SleepNights) {
        let stages = stages.sorted { $0.timeMs < $1.timeMs }
        for window in windows where window.endMs > window.startMs && window.endMs - window.startMs <= longestNightMs {
            let inside = stages.filter { $0.timeMs >= window.startMs && $0.timeMs < window.endMs }
            guard !inside.isEmpty else {
                nights.add(SleepSample(stage: .unspecified, startMs: window.startMs, endMs: window.endMs, source: source))
                continue
            }
            for (index, mark) in inside.enumerated() {
                let end = index + 1 < inside.count ? inside[index + 1].timeMs : window.endMs
                guard let stage = xiaomiStage(mark.code), end > mark.timeMs else { continue }
                nights.add(SleepSample(stage: stage, startMs: mark.timeMs, endMs: end, source: source))
            }
        }
    }

    /// One Garmin device's nights from its stage samples.
    static func addGarmin(_ marks: [Mark], source: String, to nights: inout SleepNights) {
        var previous: Int64?
        for mark in marks.sorted(by: { $0.timeMs < $1.timeMs }) {
            defer { previous = mark.timeMs }
            guard let start = previous, mark.timeMs > start, mark.timeMs - start <= garminNightGapMs,
                  let stage = garminStage(mark.code) else { continue }
            nights.add(SleepSample(stage: stage, startMs: start, endMs: mark.timeMs, source: source))
        }
    }
}
