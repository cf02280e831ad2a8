import Foundation
@testable import HealthModel
import Testing

/// A night's figures from overlapping samples, worked by hand: the union rule of `docs/methods.md`
/// ("Sleep: one night, counted once"), the interval union as any interval-merging sweep computes it.
@Suite struct SleepNightsTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// "2024-01-10 23:00" in UTC as ms.
    static func at(_ text: String) -> Int64 {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return Int64(formatter.date(from: text)!.timeIntervalSince1970 * 1000)
    }

    static func sample(_ stage: SleepStage, _ from: String, _ to: String, _ source: String) -> SleepSample {
        SleepSample(stage: stage, startMs: at(from), endMs: at(to), source: source)
    }

    /// The watch's night with stages, and the phone's in-bed window and its own "asleep" over the same hours.
    static let watchAndPhone: [SleepSample] = [
        sample(.core, "2024-01-10 23:00", "2024-01-11 01:00", "Apple Watch"),   // 120
        sample(.deep, "2024-01-11 01:00", "2024-01-11 02:00", "Apple Watch"),   //  60
        sample(.rem, "2024-01-11 02:00", "2024-01-11 03:00", "Apple Watch"),    //  60
        sample(.awake, "2024-01-11 03:00", "2024-01-11 03:10", "Apple Watch"),  //  10
        sample(.core, "2024-01-11 03:10", "2024-01-11 06:30", "Apple Watch"),   // 200
        sample(.inBed, "2024-01-10 22:45", "2024-01-11 06:45", "iPhone"),       // 480
        sample(.unspecified, "2024-01-10 23:30", "2024-01-11 06:00", "iPhone"), // 390
    ]

    @Test func twoDevicesOverTheSameMinutesCountThemOnce() throws {
        var sleep = SleepNights()
        Self.watchAndPhone.forEach { sleep.add($0) }
        let nights = sleep.nights(calendar: Self.utc)
        #expect(nights.count == 1)
        let night = try #require(nights.first)
        // Asleep: the watch's 23:00–03:00 and 03:10–06:30 (440 min) and the phone's 23:30–06:00, which fills
        // the watch's 10 minutes awake: one stretch 23:00–06:30, 450 min. Added up they would be 830.
        #expect(night.minutes == [.sleep: 450, .coreSleep: 320, .deepSleep: 60, .remSleep: 60, .sleepAwake: 10, .timeInBed: 480])
        #expect(night.day == Day(year: 2024, month: 1, day: 11), "a night belongs to the day it ends")
        #expect(night.endMs == Self.at("2024-01-11 06:45"))
        #expect(night.source == "Apple Watch", "named after the device that saw the most of it asleep")
        #expect(night.mainKind == .sleep)
    }

    @Test func theSameSamplesTwiceChangeNothing() {
        var once = SleepNights(), twice = SleepNights()
        Self.watchAndPhone.forEach { once.add($0) }
        (Self.watchAndPhone + Self.watchAndPhone).forEach { twice.add($0) }
        #expect(once.nights(calendar: Self.utc) == twice.nights(calendar: Self.utc))
    }

    @Test func aNapBeforeSixInTheEveningJoinsTheNightThatEndedThatMorning() throws {
        var sleep = SleepNights()
        Self.watchAndPhone.forEach { sleep.add($0) }
        sleep.add(Self.sample(.core, "2024-01-11 14:00", "2024-01-11 14:30", "Apple Watch"))
        // Ends 19:00 on the 11th: 19:00 + 6 h is the 12th, so it opens the next night.
        sleep.add(Self.sample(.core, "2024-01-11 18:30", "2024-01-11 19:00", "Apple Watch"))
        let nights = sleep.nights(calendar: Self.utc)
        #expect(nights.map(\.day) == [Day(year: 2024, month: 1, day: 11), Day(year: 2024, month: 1, day: 12)])
        #expect(nights[0].minutes[.sleep] == 480)
        #expect(nights[0].minutes[.coreSleep] == 350)
        #expect(nights[1].minutes == [.sleep: 30, .coreSleep: 30])
    }

    @Test func theDayANightBelongsToIsLocal() {
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
        // 17:30 UTC is 18:30 in Berlin (winter): past the turn, so the next day's night there; the 11th in UTC.
        let end = Self.at("2024-01-11 17:30")
        #expect(SleepNights.day(endingAt: end, calendar: Self.utc) == Day(year: 2024, month: 1, day: 11))
        #expect(SleepNights.day(endingAt: end, calendar: berlin) == Day(year: 2024, month: 1, day: 12))
    }

    @Test func aPhoneAloneGivesTimeInBedAndNoTimeAsleep() throws {
        var sleep = SleepNights()
        sleep.add(Self.sample(.inBed, "2024-01-10 22:45", "2024-01-11 06:45", "iPhone"))
        let night = try #require(sleep.nights(calendar: Self.utc).first)
        #expect(night.minutes == [.timeInBed: 480])
        #expect(night.mainKind == .timeInBed)
    }

    /// Totals without intervals (Health Auto Export's summed nights): overlapping windows are one stretch
    /// seen twice, so each figure is the larger; a nap apart adds.
    @Test func overlappingSummariesTakeTheLargerFigureAndDisjointOnesAdd() throws {
        var sleep = SleepNights()
        sleep.add(SleepSummary(startMs: Self.at("2024-01-10 23:00"), endMs: Self.at("2024-01-11 06:30"), source: "Apple Watch",
                               minutes: [.sleep: 450, .coreSleep: 240, .deepSleep: 60, .remSleep: 90, .sleepAwake: 15]))
        sleep.add(SleepSummary(startMs: Self.at("2024-01-10 22:45"), endMs: Self.at("2024-01-11 06:45"), source: "iPhone",
                               minutes: [.sleep: 420, .timeInBed: 480]))
        sleep.add(SleepSummary(startMs: Self.at("2024-01-11 13:00"), endMs: Self.at("2024-01-11 13:30"), source: "Apple Watch",
                               minutes: [.sleep: 30]))
        let night = try #require(sleep.nights(calendar: Self.utc).first)
        // max(450, 420) + 30 asleep; the other figures from the one summary that has them.
        #expect(night.minutes == [.sleep: 480, .coreSleep: 240, .deepSleep: 60, .remSleep: 90, .sleepAwake: 15, .timeInBed: 480])
        #expect(night.endMs == Self.at("2024-01-11 13:30"))
    }

    @Test func anIntervalUnionCountsSharedAndTouchingStretchesOnce() {
        #expect(IntervalUnion.coveredMs([(0, 10), (5, 15), (15, 20), (30, 40), (32, 35), (50, 50)]) == 30)
        #expect(IntervalUnion.coveredMs([]) == 0)
    }
}
