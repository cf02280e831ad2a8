import Foundation
import HealthModel
import Testing

/// Issue 28, item 6: times as people type them, the same in the dashboard's prompts and in `--at`.
/// Hand-worked in Berlin (UTC+1 in November).
struct TypedTimeTests {
    static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return c
    }()
    static let today = Day(year: 2026, month: 11, day: 20)

    private func at(_ text: String, day: Day = today) -> String? {
        TypedTime.date(text, day: day, today: Self.today, calendar: Self.calendar).map { date in
            let c = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
            return String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
        }
    }

    @Test func theFormsPeopleType() {
        #expect(at("21:30") == "2026-11-20 21:30")
        #expect(at("7:10") == "2026-11-20 07:10", "an unpadded hour")
        #expect(at("yesterday 21:30") == "2026-11-19 21:30")
        #expect(at("Yesterday") == "2026-11-19 12:00", "a day alone is its noon")
        #expect(at("today 7:10") == "2026-11-20 07:10")
        #expect(at("2026-11-3 07:10") == "2026-11-03 07:10", "an unpadded date")
        #expect(at("2026-11-18T06:05") == "2026-11-18 06:05")
        #expect(at("2026-11-18") == "2026-11-18 12:00")
    }

    @Test func aTimeAloneIsOnTheDayMeant() {
        // The energy screen on Wednesday: "13:00" is Wednesday's lunch, "yesterday" still counts from today.
        let wednesday = Day(year: 2026, month: 11, day: 18)
        #expect(at("13:00", day: wednesday) == "2026-11-18 13:00")
        #expect(at("yesterday 13:00", day: wednesday) == "2026-11-19 13:00")
    }

    @Test func whatIsNoTime() {
        for text in ["last week", "25:00", "7:1", "7:100", "2026-13-01", "2026-11-20 07:10 extra", "", "tomorrow 7:00", "٧:١٠"] {
            #expect(at(text) == nil, "\(text)")
        }
    }
}
