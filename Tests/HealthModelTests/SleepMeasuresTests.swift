import Foundation
@testable import HealthModel
import Testing

/// The per-night measures, the Sleep Regularity Index, sleep debt and consistency, worked by hand as
/// `docs/methods.md` ("Sleep: a night's measures", "Sleep regularity, need and debt") states them. The SRI
/// vectors are the issue's: seven identical nights give 100 (Phillips et al. 2017, Sci Rep 7:3216: the same
/// state 24 h apart at every minute); nights alternating bed at 23:00 and 00:00 with wake at 07:00 differ in
/// 60 of each pair's 1,440 minutes, so 200 · 1380/1440 − 100 = 200 · 23/24 − 100 = 91.67.
@Suite struct SleepMeasuresTests {
    static let utc = SleepNightsTests.utc
    static func at(_ text: String) -> Int64 { SleepNightsTests.at(text) }
    static func sample(_ stage: SleepStage, _ from: String, _ to: String, _ source: String = "Apple Watch") -> SleepSample {
        SleepNightsTests.sample(stage, from, to, source)
    }

    static func nights(_ samples: [SleepSample]) -> [SleepNight] {
        var sleep = SleepNights()
        samples.forEach { sleep.add($0) }
        return sleep.nights(calendar: utc)
    }

    /// A night asleep from `bed` on the day before `day` (or on `day` itself, after midnight) to 07:00 on `day`.
    static func night(_ day: Int, bed: String) -> SleepSample {
        let from = bed.hasPrefix("23") ? "2024-01-\(String(format: "%02d", day - 1)) \(bed)" : "2024-01-\(String(format: "%02d", day)) \(bed)"
        return sample(.unspecified, from, "2024-01-\(String(format: "%02d", day)) 07:00")
    }

    static let jan11 = Day(year: 2024, month: 1, day: 11)

    /// The watch's night alone: in bed 22:45–06:45 (the phone), core 23:00–01:00, deep 01:00–02:00,
    /// REM 02:00–03:00, awake 03:00–03:10, core 03:10–06:30.
    static let watchNight: [SleepSample] = [
        sample(.inBed, "2024-01-10 22:45", "2024-01-11 06:45", "iPhone"),
        sample(.core, "2024-01-10 23:00", "2024-01-11 01:00"),
        sample(.deep, "2024-01-11 01:00", "2024-01-11 02:00"),
        sample(.rem, "2024-01-11 02:00", "2024-01-11 03:00"),
        sample(.awake, "2024-01-11 03:00", "2024-01-11 03:10"),
        sample(.core, "2024-01-11 03:10", "2024-01-11 06:30"),
    ]

    @Test func aNightWithStagesIsMeasuredFromThem() throws {
        let night = try #require(Self.nights(Self.watchNight).first)
        let measures = SleepNightMeasures(night, calendar: Self.utc)
        #expect(measures.fromStages)
        #expect(measures.bedMs == Self.at("2024-01-10 22:45"))
        #expect(measures.wakeMs == Self.at("2024-01-11 06:45"))
        // Asleep 120 + 60 + 60 + 200 = 440 of 480 in bed: 91.7 %.
        #expect(measures.asleep == 440)
        #expect(measures.inBed == 480)
        #expect(measures.efficiency == 440.0 / 480.0)
        #expect(measures.latency == 15, "22:45 into bed, 23:00 asleep")
        #expect(measures.wakeAfterSleepOnset == 10, "the ten minutes awake at 03:00")
        // Halfway between 23:00 and 06:30: 02:45.
        #expect(measures.midpointMs == Self.at("2024-01-11 02:45"))
        #expect(measures.stages == [Field.coreSleepMinutes: 320, Field.deepSleepMinutes: 60, Field.remSleepMinutes: 60, Field.awakeMinutes: 10])
        #expect(measures.naps.isEmpty)
    }

    @Test func theHypnogramKeepsEachRunAndReadsBack() throws {
        let night = try #require(Self.nights(Self.watchNight).first)
        let hypnogram = try #require(night.hypnogram)
        // From 22:45: in bed 15 min, core to 01:00 (135), deep to 02:00 (195), REM to 03:00 (255), awake to
        // 03:10 (265), core to 06:30 (465), in bed to 06:45 (480).
        #expect(hypnogram.text == "0b,15c,135d,195r,255w,265c,465b,480.")
        #expect(Hypnogram(text: hypnogram.text, startMs: hypnogram.startMs) == hypnogram)
        #expect(night.startMs == Self.at("2024-01-10 22:45"))
        #expect(Hypnogram(text: "0b,15c", startMs: 0) == nil, "no total")
        #expect(Hypnogram(text: "5b,480.", startMs: 0) == nil, "a first run after minute 0")
        #expect(Hypnogram(text: "0b,20c,10d,480.", startMs: 0) == nil, "runs out of order")
        #expect(Hypnogram(text: "0x,480.", startMs: 0) == nil, "an unknown stage")
    }

    @Test func twoDevicesNamingOneMinuteGiveItTheStageThatCountsAsleep() throws {
        // The phone's "asleep" 23:30–06:00 covers the watch's ten minutes awake: asleep, as in the night's
        // time asleep (450 by the union rule), and the stage named where one is (core, deep, REM).
        let night = try #require(Self.nights(SleepNightsTests.watchAndPhone).first)
        let measures = SleepNightMeasures(night, calendar: Self.utc)
        #expect(measures.asleep == 450)
        #expect(measures.asleep == night.minutes[.sleep])
        #expect(measures.wakeAfterSleepOnset == 0)
    }

    @Test func aNapInTheDaytimeIsKeptApartFromTheNight() throws {
        let night = try #require(Self.nights(Self.watchNight + [Self.sample(.unspecified, "2024-01-11 14:00", "2024-01-11 14:40")]).first)
        #expect(night.minutes[.sleep] == 480, "the day's stored total holds both")
        let measures = SleepNightMeasures(night, calendar: Self.utc)
        #expect(measures.asleep == 440)
        #expect(measures.wakeMs == Self.at("2024-01-11 06:45"))
        #expect(measures.naps == [SleepNightMeasures.Nap(startMs: Self.at("2024-01-11 14:00"), endMs: Self.at("2024-01-11 14:40"), asleep: 40)])
        #expect(measures.napMinutes == 40)
    }

    @Test func aNightOfTotalsIsMeasuredFromItsSession() throws {
        var sleep = SleepNights()
        sleep.add(SleepSummary(startMs: Self.at("2024-01-10 23:30"), endMs: Self.at("2024-01-11 07:00"), source: "Oura",
                               minutes: [.sleep: 400, .timeInBed: 450, .deepSleep: 80]))
        let night = try #require(sleep.nights(calendar: Self.utc).first)
        #expect(night.hypnogram == nil)
        let measures = SleepNightMeasures(night, calendar: Self.utc)
        #expect(!measures.fromStages)
        #expect(measures.bedMs == Self.at("2024-01-10 23:30"))
        #expect(measures.asleep == 400)
        #expect(measures.inBed == 450)
        #expect(measures.efficiency == 400.0 / 450.0)
        #expect(measures.latency == nil)
        #expect(measures.wakeAfterSleepOnset == nil)
        #expect(measures.midpointMs == Self.at("2024-01-11 03:15"), "halfway between 23:30 and 07:00")
        #expect(measures.stages == [Field.deepSleepMinutes: 80])
    }

    @Test func sevenIdenticalNightsAreAsRegularAsCanBe() {
        let nights = Self.nights((5...11).map { Self.night($0, bed: "23:00") })
        #expect(SleepRegularity.index(nights: nights, days: 7, endingOn: Self.jan11, calendar: Self.utc) == 100)
        #expect(SleepRegularity.index(nights: nights, days: 30, endingOn: Self.jan11, calendar: Self.utc) == 100)
    }

    @Test func nightsAlternatingAnHourApartScore91Point7() throws {
        let nights = Self.nights((5...11).map { Self.night($0, bed: $0 % 2 == 0 ? "23:00" : "00:00") })
        let sri = try #require(SleepRegularity.index(nights: nights, days: 7, endingOn: Self.jan11, calendar: Self.utc))
        #expect(abs(sri - (200.0 * 23 / 24 - 100)) < 1e-9)
        #expect(String(format: "%.1f", sri) == "91.7")
    }

    @Test func daysWithoutANightMakeNoPair() {
        // Nights on the 5th, 7th, 9th and 11th: no two consecutive days both have one.
        let apart = Self.nights([5, 7, 9, 11].map { Self.night($0, bed: "23:00") })
        #expect(SleepRegularity.index(nights: apart, days: 7, endingOn: Self.jan11, calendar: Self.utc) == nil)
        // With the 10th added, the one pair (10th, 11th) counts alone; the 7th and 9th pair with nothing.
        let onePair = Self.nights([5, 7, 9, 10, 11].map { Self.night($0, bed: $0 == 10 ? "00:00" : "23:00") })
        let sri = SleepRegularity.index(nights: onePair, days: 7, endingOn: Self.jan11, calendar: Self.utc)
        #expect(sri.map { abs($0 - (200.0 * 23 / 24 - 100)) < 1e-9 } == true)
    }

    @Test func debtWeighsRecentNightsMore() {
        // Need 480. Last night 360 (120 short, weight 14/14); three nights before it 420 (60 short, weight
        // 11/14); the rest 480 or more, which repays nothing: 120 + 60 · 11/14 = 167.14 min.
        var asleep: [Day: Double] = [:]
        for k in 0..<14 { asleep[Self.jan11.adding(days: -k)] = 540 }
        asleep[Self.jan11] = 360
        asleep[Self.jan11.adding(days: -3)] = 420
        let debt = SleepDebt.minutes(asleepByDay: asleep, endingOn: Self.jan11, needMinutes: SleepDebt.defaultNeedMinutes)
        #expect(abs(debt - (120 + 60.0 * 11 / 14)) < 1e-9)
        #expect(SleepDebt.weight(nightsBefore: 0) == 1)
        #expect(SleepDebt.weight(nightsBefore: 13) == 1.0 / 14)
        #expect(SleepDebt.weight(nightsBefore: 14) == 0, "the fifteenth night back counts nothing")
        // A night with no record adds nothing.
        #expect(SleepDebt.minutes(asleepByDay: [:], endingOn: Self.jan11, needMinutes: 480) == 0)
    }

    @Test func consistencyIsTheSpreadOfBedAndWakeTimes() {
        // Beds 23:00, 00:00, 23:00, 00:00: 660 and 720 minutes after noon, mean 690, squares 4 · 900 = 3600,
        // over n − 1 = 3: √1200 = 34.64 min. Wakes all 07:00: 0.
        let nights = Self.nights((8...11).map { Self.night($0, bed: $0 % 2 == 0 ? "23:00" : "00:00") })
        let consistency = SleepConsistency(nights.map { SleepNightMeasures($0, calendar: Self.utc) }, calendar: Self.utc)
        #expect(consistency.bedMinutes.map { abs($0 - 1200.0.squareRoot()) < 1e-9 } == true)
        #expect(consistency.wakeMinutes == 0)
        #expect(SleepConsistency([], calendar: Self.utc).bedMinutes == nil)
    }
}
