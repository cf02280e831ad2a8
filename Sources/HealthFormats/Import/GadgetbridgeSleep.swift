import Foundation
import HealthModel

/// The nights of a Gadgetbridge database, from two device families' tables, made into `SleepSample`s for
/// `SleepNights` (which counts each minute once and files a night under the day it ends).
///
/// - Xiaomi: `XIAOMI_SLEEP_TIME_SAMPLE` is a night's window (bedtime `TIMESTAMP` to `WAKEUP_TIME`, ms), and
///   `XIAOMI_SLEEP_STAGE_SAMPLE` its stages, each lasting from its time to the next stage or to the wake-up
///   time, as `XiaomiSampleProvider` lays them over the minutes. A window without stages (an older band) is
///   time asleep without a stage.
/// - Garmin: `GARMIN_SLEEP_STAGE_SAMPLE`'s times are upper bounds (`GarminActivitySampleProvider`): a
///   sample's stage is that of the stretch ending at its time, from the sample before it. A gap of more than
///   `garminNightGapMs` between two samples starts a new night, whose first sample only marks its start.
enum GadgetbridgeSleep {
    /// A sample's time and its stage number, ms.
    struct Mark: Sendable {
        var timeMs: Int64
        var code: Int64
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
