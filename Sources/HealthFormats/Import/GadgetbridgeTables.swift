import Foundation
import HealthModel

/// The tables of a Gadgetbridge database hmon reads, with the columns it needs of each, as Gadgetbridge's
/// `GBDaoGenerator.java` defines them (greenDAO makes each camelCase property an UPPER_SNAKE column).
///
/// Two clocks: an activity sample (`addCommonActivitySampleProperties`) has `TIMESTAMP` in seconds, one a
/// minute; a time sample (`addCommonTimeSampleProperties`) has it in milliseconds. Both have `DEVICE_ID`, the
/// `DEVICE` table's `_id`.
struct GadgetbridgeTable: Sendable {
    enum Role: Sendable {
        /// Minutes of steps and heart rate (and the active energy, where the table has a column of kcal, and
        /// the minutes asleep, where the family marks them in its samples).
        case activity(activeKcal: String?, sleep: GadgetbridgeSleep.MinuteCoding?)
        /// One value a sample of `kind`, from `column`.
        case value(ReadingKind, column: String)
        /// Xiaomi's nights: bedtime (`TIMESTAMP`) and `WAKEUP_TIME`, both in ms.
        case xiaomiSleepTimes
        /// Xiaomi's stages, each lasting to the next (`SleepDetailsParser.decodeStage`'s numbers).
        case xiaomiSleepStages
        /// Garmin's stages, each ending at its time (FIT's sleep levels).
        case garminSleepStages
        /// Only the sleep marked in a family's samples (Huawei's: its steps come in spans from several of the
        /// band's messages, with end markers among them, so a plain sum of them would be wrong).
        case sleepMarks(GadgetbridgeSleep.MinuteCoding)
    }

    var name: String
    var role: Role
    var columns: [String]

    /// Whether `TIMESTAMP` counts seconds (an activity sample) rather than milliseconds.
    var timestampInSeconds: Bool {
        switch role {
        case .activity, .sleepMarks: true
        default: false
        }
    }

    static let devices = "DEVICE"
    static let deviceColumns = ["_id", "NAME", "IDENTIFIER", "ALIAS"]

    private static func activity(_ name: String, activeKcal: String? = nil, sleep: GadgetbridgeSleep.MinuteCoding? = nil)
        -> GadgetbridgeTable {
        GadgetbridgeTable(name: name, role: .activity(activeKcal: activeKcal, sleep: sleep),
                          columns: ["TIMESTAMP", "DEVICE_ID", "STEPS", "HEART_RATE"] + (activeKcal.map { [$0] } ?? [])
                              + (sleep?.columns ?? []))
    }

    private static func value(_ name: String, _ kind: ReadingKind, _ column: String) -> GadgetbridgeTable {
        GadgetbridgeTable(name: name, role: .value(kind, column: column), columns: ["TIMESTAMP", "DEVICE_ID", column])
    }

    static let known: [GadgetbridgeTable] = [
        // Mi Band 2–3 and Amazfit (Huami) bands and watches, older and newer firmware: their minutes asleep
        // are marked in the samples' kind.
        activity("MI_BAND_ACTIVITY_SAMPLE", sleep: .miBand),
        activity("HUAMI_EXTENDED_ACTIVITY_SAMPLE", sleep: .huamiExtended),
        // Huawei and Honor bands and watches: their nights, a block of minutes a row.
        GadgetbridgeTable(name: "HUAWEI_ACTIVITY_SAMPLE", role: .sleepMarks(.huaweiBlocks),
                          columns: ["TIMESTAMP", "DEVICE_ID"] + GadgetbridgeSleep.MinuteCoding.huaweiBlocks.columns),
        // Xiaomi's newer bands and watches (Smart Band 8, Redmi Watch).
        activity("XIAOMI_ACTIVITY_SAMPLE"),
        // Garmin: ACTIVE_CALORIES is kcal (GarminActivitySampleProvider multiplies it by 1000 for its charts).
        activity("GARMIN_ACTIVITY_SAMPLE", activeKcal: "ACTIVE_CALORIES"),
        value("MI_SCALE_WEIGHT_SAMPLE", .weight, "WEIGHT_KG"),
        value("GARMIN_HEART_RATE_RESTING_SAMPLE", .restingHeartRate, "HEART_RATE"),
        value("HUAMI_HEART_RATE_RESTING_SAMPLE", .restingHeartRate, "HEART_RATE"),
        value("GARMIN_SPO2_SAMPLE", .oxygenSaturation, "SPO2"),
        value("HUAMI_SPO2_SAMPLE", .oxygenSaturation, "SPO2"),
        // Garmin's overnight HRV is the RMSSD of the night's beats, in ms.
        value("GARMIN_HRV_SUMMARY_SAMPLE", .heartRateVariabilityFromBeats, "LAST_NIGHT_AVERAGE"),
        GadgetbridgeTable(name: "XIAOMI_SLEEP_TIME_SAMPLE", role: .xiaomiSleepTimes, columns: ["TIMESTAMP", "DEVICE_ID", "WAKEUP_TIME"]),
        GadgetbridgeTable(name: "XIAOMI_SLEEP_STAGE_SAMPLE", role: .xiaomiSleepStages, columns: ["TIMESTAMP", "DEVICE_ID", "STAGE"]),
        GadgetbridgeTable(name: "GARMIN_SLEEP_STAGE_SAMPLE", role: .garminSleepStages, columns: ["TIMESTAMP", "DEVICE_ID", "STAGE"]),
    ]

    /// Tables that hold no readings of the person's: Android's and SQLite's bookkeeping, never named in the report.
    static let bookkeeping: Set<String> = ["android_metadata", "room_master_table"]
}
