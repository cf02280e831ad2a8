import Testing
@testable import HealthModel

/// Dates as people type them (issue 28, item 6) and as contracts write them.
@Suite struct DayTypedTests {
    @Test func aTypedDateMayLeaveOutTheLeadingZeros() {
        #expect(Day(typed: "1985-3-14") == Day(year: 1985, month: 3, day: 14))
        #expect(Day(typed: " 1985-03-04 ") == Day(year: 1985, month: 3, day: 4))
        #expect(Day(typed: "1990-2-30") == nil, "still a real date")
        #expect(Day(typed: "85-3-14") == nil, "a four-digit year")
        #expect(Day(typed: "1985-+3-14") == nil)
        #expect(Day(typed: "1985-003-14") == nil)
    }

    /// Exist's dates and the other contracts are written padded, and read only so.
    @Test func anISODateIsPadded() {
        #expect(Day(iso: "1985-03-14") == Day(year: 1985, month: 3, day: 14))
        #expect(Day(iso: "1985-3-14") == nil)
        #expect(Day(iso: "1985-+3-14") == nil)
    }
}
