import Foundation
import HealthConnectors
import HealthModel
import Testing

/// Oura's sleep documents as hmon's nights (`OuraNights`): one reading a night on the day it ends, a nap
/// adding to its day, the long sleep's HRV and lowest heart rate beside it, periods that are not sleep
/// skipped by name. Figures worked by hand.
@Suite struct OuraNightsTests {
    static func period(_ id: String, type: String, start: String, end: String, asleep: Double, inBed: Double,
                       hrv: Double? = nil, lowest: Double? = nil) -> OuraSleep {
        OuraSleep(id: id, day: String(end.prefix(10)), bedtime_start: start, bedtime_end: end, type: type, average_hrv: hrv,
                  lowest_heart_rate: lowest, total_sleep_duration: asleep, time_in_bed: inBed, deep_sleep_duration: nil,
                  rem_sleep_duration: nil, light_sleep_duration: nil, awake_time: nil)
    }

    @Test func aNapAddsToTheNightOfItsDayAndOnlyTheLongSleepGivesHRV() throws {
        let nights = OuraNights([
            Self.period("long", type: "long_sleep", start: "2026-11-19T23:00:00+01:00", end: "2026-11-20T07:00:00+01:00",
                        asleep: 25_200, inBed: 28_800, hrv: 41.5, lowest: 49.6),
            Self.period("nap", type: "late_nap", start: "2026-11-20T14:00:00+01:00", end: "2026-11-20T14:30:00+01:00",
                        asleep: 1_200, inBed: 1_800, hrv: 30, lowest: 60),
            Self.period("ill", type: "rest", start: "2026-11-20T10:00:00+01:00", end: "2026-11-20T11:00:00+01:00", asleep: 0, inBed: 3_600),
            Self.period("gone", type: "deleted", start: "2026-11-20T12:00:00+01:00", end: "2026-11-20T13:00:00+01:00", asleep: 0, inBed: 3_600),
        ])
        let night = try #require(nights.readings.first { $0.kind == .sleep })
        #expect(night.key == "night:2026-11-20")
        #expect(night.value == 440.0, "7 h asleep and a 20-minute nap")
        #expect(night.extras[Field.inBedMinutes] == 510.0, "8 h in bed and 30 minutes of nap")
        #expect(nights.readings.filter { $0.kind == .heartRateVariabilityFromBeats }.map(\.value) == [41.5])
        #expect(nights.readings.filter { $0.kind == .restingHeartRate }.map(\.value) == [50], "a heart rate is a whole number")
        #expect(nights.skippedText == ["1 sleep period skipped (type deleted: not sleep)",
                                       "1 sleep period skipped (type rest: rest mode, not sleep)"])
    }

    @Test func aNightEndingAfterSixInTheEveningBelongsToTheNextDay() throws {
        // A night-shift worker's sleep ending at 19:00 local is the next day's, as every source's (`SleepNights`).
        let nights = OuraNights([Self.period("day-sleep", type: "long_sleep", start: "2026-11-20T11:00:00-05:00",
                                             end: "2026-11-20T19:00:00-05:00", asleep: 25_200, inBed: 28_800)])
        #expect(nights.readings.first { $0.kind == .sleep }?.key == "night:2026-11-21")
    }

    @Test func aPeriodWithoutReadableTimesIsSkippedNotFatal() {
        let nights = OuraNights([Self.period("x", type: "long_sleep", start: "yesterday", end: "today", asleep: 1, inBed: 1)])
        #expect(nights.readings.isEmpty)
        #expect(nights.skippedText == ["1 sleep period skipped (a period without bedtime_start and bedtime_end as ISO 8601 times)"])
    }
}
