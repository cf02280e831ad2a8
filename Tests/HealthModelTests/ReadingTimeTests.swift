import Foundation
import HealthModel
import Testing

/// The one date rule every door shares (`ReadingTime`): a real calendar date, an offset within ±14:00, not
/// before 2000, not more than a day ahead. Instants worked by hand from the calendar.
@Suite struct ReadingTimeTests {
    @Test func realInstantsReadAsTheirMilliseconds() {
        let morning: Int64 = (20_124 * 86_400 + 27_000) * 1000
        // 2025-02-05T07:30:00Z: 20,124 days after 1970-01-01, plus 7.5 h.
        #expect(ReadingTime.milliseconds(iso: "2025-02-05T07:30:00Z") == morning)
        #expect(ReadingTime.milliseconds(iso: "2025-02-05T08:30:00+01:00") == morning)
        #expect(ReadingTime.milliseconds(iso: "2025-02-05T07:30:00.120Z") == morning + 120)
        #expect(ReadingTime.milliseconds(iso: "2025-02-05T07:30:00.123456789Z") == morning + 123)
        // Leap days: 2024 is a leap year, 2100 is not, 2000 is.
        #expect(ReadingTime.milliseconds(iso: "2024-02-29T00:00:00Z") != nil)
        #expect(ReadingTime.milliseconds(iso: "2000-02-29T00:00:00Z") != nil)
        // The widest offsets any zone uses.
        #expect(ReadingTime.milliseconds(iso: "2025-02-05T07:30:00+14:00") != nil)
        #expect(ReadingTime.milliseconds(iso: "2025-02-05T07:30:00-12:00") != nil)
    }

    @Test(arguments: ["2025-02-30T07:00:00Z", "2025-04-31T07:00:00Z", "2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z",
                      "2025-13-01T00:00:00Z", "2025-00-10T00:00:00Z", "2025-02-05T24:00:00Z", "2025-02-05T07:60:00Z",
                      "2025-02-05T07:30:60Z", "2025-02-05T07:30:00+99:00", "2025-02-05T07:30:00+01:99", "2025-02-05T07:30:00+14:01",
                      "2025-02-05T07:30:00", "2025-02-05T07:30:00.Z", "2025-02-05T07:30:00.1234567890Z", "2025-02-05", ""])
    func impossibleOrUnreadableInstantsAreNone(_ text: String) {
        #expect(ReadingTime.milliseconds(iso: text) == nil)
    }

    @Test func theWindowIsFrom2000ToADayAhead() {
        let now: Int64 = 1_763_622_000_000
        #expect(ReadingTime.problem(ReadingTime.earliest, now: now) == nil)
        #expect(ReadingTime.problem(ReadingTime.earliest - 1, now: now) == "before 2000")
        #expect(ReadingTime.problem(0, now: now) == "before 2000")
        #expect(ReadingTime.problem(.min, now: now) == "before 2000")
        #expect(ReadingTime.problem(now + 86_400_000, now: now) == nil)
        #expect(ReadingTime.problem(now + 86_400_001, now: now) == "more than a day in the future")
        #expect(ReadingTime.problem(.max, now: .max) == nil, "no overflow at the edge")
    }
}
