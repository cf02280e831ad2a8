/// The few numbers of Garmin's FIT profile (its `Profile.xlsx`, `profile.py` in Garmin's Python SDK) that
/// hmon reads: message and field numbers, scales and the file types it looks for.
enum FITProfile {
    /// Every message's `timestamp` field.
    static let timestampField: UInt8 = 253
    /// FIT's `date_time` counts seconds from 1989-12-31 00:00 UTC.
    static let unixSecondsAtFITEpoch: Int64 = 631_065_600
    /// `date_time` values below this are seconds since the device powered up, not dates.
    static let minimumDateTime: UInt64 = 0x1000_0000

    enum FileID {
        static let message: UInt16 = 0
        static let type: UInt8 = 0, manufacturer: UInt8 = 1, product: UInt8 = 2, serialNumber: UInt8 = 3
        static let productName: UInt8 = 8
    }

    /// `weight_scale`: masses in kg ×100, shares in % ×100.
    enum WeightScale {
        static let message: UInt16 = 30
        static let weight: UInt8 = 0, percentFat: UInt8 = 1, percentHydration: UInt8 = 2, boneMass: UInt8 = 4, muscleMass: UInt8 = 5
        static let scale = 100.0
        /// The `weight` type's `calculating`: the scale had not settled when it wrote the message.
        static let calculating = 0xFFFE
    }

    /// `blood_pressure`: pressures in mmHg, heart rate in beats a minute, no scale.
    enum BloodPressure {
        static let message: UInt16 = 51
        static let systolic: UInt8 = 0, diastolic: UInt8 = 1, heartRate: UInt8 = 6
    }

    /// `hrv_status_summary`: RMSSD figures in ms ×128.
    enum HRVStatusSummary {
        static let message: UInt16 = 370
        static let lastNightAverage: UInt8 = 1
        static let scale = 128.0
    }

    /// `sleep_level`: the `sleep_level` enum, 0 unmeasurable, 1 awake, 2 light, 3 deep, 4 rem.
    enum SleepLevel {
        static let message: UInt16 = 275
        static let level: UInt8 = 0
        static let unmeasurable: Int64 = 0
    }

    /// `event`: the event, its type (0 start, 1 stop). Event 74, which Garmin's watches write in their sleep
    /// files and the published profile does not name, is the night's sleep (as Gadgetbridge reads it).
    enum Event {
        static let message: UInt16 = 21
        static let event: UInt8 = 0, eventType: UInt8 = 1
        static let sleep = 74
        static let start = 0
    }

    /// `monitoring`: counts since local midnight per activity type (`cycles` ×2 as cycles, or as steps for
    /// walking and running with no scale, the profile's `steps` sub-field; `active_calories` in kcal), the heart
    /// rate a minute, and `timestamp_16`, the time's low 16 bits, in messages without a full timestamp.
    enum Monitoring {
        static let message: UInt16 = 55
        static let cycles: UInt8 = 3, activityType: UInt8 = 5, activeCalories: UInt8 = 19
        /// `current_activity_type_intensity`: the activity type in its low five bits, the intensity in the top three.
        static let activityTypeIntensity: UInt8 = 24
        static let timestamp16: UInt8 = 26, heartRate: UInt8 = 27
    }

    /// `monitoring_info`: `local_timestamp` is the watch's clock at the message's `timestamp`.
    enum MonitoringInfo {
        static let message: UInt16 = 103
        static let localTimestamp: UInt8 = 0
    }

    /// `monitoring_hr_data`: the seven-day resting heart rate and the day's own, in beats a minute.
    enum MonitoringHRData {
        static let message: UInt16 = 211
        static let resting: UInt8 = 0, currentDayResting: UInt8 = 1
    }

    /// `file` type values hmon reads a whole file of (the others hold nothing it imports). Sleep (49) and
    /// HRV status (68) files are ones Garmin's watches write that the published profile does not list.
    enum FileType {
        static let weight = 9, bloodPressure = 14, sleep = 49, hrvStatus = 68
        static let read: Set<Int> = [weight, bloodPressure, sleep, hrvStatus]
        /// A watch's monitoring files, read whole into days (`GarminMonitoringDays`) where the import keeps them.
        static let monitoringB = 32
    }

    /// The profile's names of the `file` types a watch's folder holds, for the import summary.
    static func fileTypeName(_ type: Int) -> String {
        switch type {
        case 1: "device"
        case 2: "settings"
        case 3: "sport"
        case 4: "activity"
        case 5: "workout"
        case 6: "course"
        case 7: "schedules"
        case 9: "weight"
        case 10: "totals"
        case 11: "goals"
        case 14: "blood_pressure"
        case 15: "monitoring_a"
        case 20: "activity_summary"
        case 28: "monitoring_daily"
        case 32: "monitoring_b"
        case 34: "segment"
        case 35: "segment_list"
        case 40: "exd_configuration"
        case 49: "sleep"
        case 68: "hrv_status"
        default: "type \(type)"
        }
    }

    /// The profile's names of the manufacturers of scales, cuffs and watches a Garmin folder may hold.
    static func manufacturerName(_ number: Int) -> String {
        switch number {
        case 1: "Garmin"
        case 15, 13: "Dynastream"
        case 255: "Development"
        default: "manufacturer \(number)"
        }
    }

    /// The message names of the import summary's skipped kinds; others by number.
    static func messageName(_ number: UInt16) -> String {
        switch number {
        case 18: "session"
        case 19: "lap"
        case 20: "record"
        case 21: "event"
        case 55: "monitoring"
        case 78: "hrv"
        case 103: "monitoring_info"
        case 211: "monitoring_hr_data"
        case 227: "stress_level"
        case 269: "spo2_data"
        case 297: "respiration_rate"
        case 275: "sleep_level"
        case 346: "sleep_assessment"
        case 370: "hrv_status_summary"
        case 371: "hrv_value"
        default: "message \(number)"
        }
    }
}
