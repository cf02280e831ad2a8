import Foundation
import ModelTestSupport
import Testing
@testable import HealthModel

@Suite struct WeightSeriesTests {
    private let cal = calendar()

    private func reading(_ text: String, _ kg: Double) -> WeightReading { WeightReading(date: date(text, in: cal), kg: kg) }

    @Test func readingsOfADayAverageToOneValue() {
        let day = Day(year: 2026, month: 11, day: 20)
        let series = WeightSeriesBuilder.series([reading("2026-11-20 07:00", 72.0), reading("2026-11-20 22:30", 73.0)],
                                                days: day...day, calendar: cal)
        #expect(series.points == [DailyWeight(day: day, kg: 72.5, isCarried: false, readings: 2)])
    }

    @Test func aGapOfThreeDaysCarriesTheLastValueForward() {
        let start = Day(year: 2026, month: 11, day: 1)
        let series = WeightSeriesBuilder.series([reading("2026-11-01 07:00", 70), reading("2026-11-05 07:00", 71)],
                                                days: start...start.adding(days: 4), calendar: cal)
        #expect(series.points.map(\.kg) == [70, 70, 70, 70, 71])
        #expect(series.points.map(\.isCarried) == [false, true, true, true, false])
        #expect(series.points.map(\.readings) == [1, 0, 0, 0, 1])
    }

    @Test func theCarryStopsAfterThirtyDays() {
        let start = Day(year: 2026, month: 1, day: 1)
        let series = WeightSeriesBuilder.series([reading("2026-01-01 07:00", 70), reading("2026-02-09 07:00", 68)],
                                                days: start...start.adding(days: 39), calendar: cal)
        let days = series.points.map(\.day)
        #expect(days.contains(start.adding(days: 30)))
        #expect(!days.contains(start.adding(days: 31)))
        #expect(!days.contains(start.adding(days: 38)))
        #expect(series.points.last == DailyWeight(day: start.adding(days: 39), kg: 68, isCarried: false, readings: 1))
        #expect(series.points.count == 32)
    }

    @Test func aReadingBeforeTheRangeCarriesIntoItsFirstDays() {
        let start = Day(year: 2026, month: 11, day: 10)
        let series = WeightSeriesBuilder.series([reading("2026-11-08 07:00", 70)], days: start...start.adding(days: 1), calendar: cal)
        #expect(series.points == [DailyWeight(day: start, kg: 70, isCarried: true, readings: 0),
                                  DailyWeight(day: start.adding(days: 1), kg: 70, isCarried: true, readings: 0)])
    }

    @Test func aReadingJustAfterLocalMidnightBelongsToThatLocalDay() {
        // 23:30 UTC on the 19th is 00:30 on the 20th in Berlin.
        let instant = Date(timeIntervalSince1970: 1_795_131_000)  // 2026-11-19 23:30 UTC
        let day = Day(year: 2026, month: 11, day: 20)
        let series = WeightSeriesBuilder.series([WeightReading(date: instant, kg: 70)], days: day...day, calendar: cal)
        #expect(series.points.first?.isCarried == false)
    }

    @Test func poundsAreKilogramsOverTheExactFactor() {
        let point = DailyWeight(day: Day(year: 2026, month: 1, day: 1), kg: 45.359237, isCarried: false, readings: 1)
        #expect(abs(point.value(in: .lb) - 100) < 1e-9)
        #expect(point.value(in: .kg) == 45.359237)
        #expect(abs(MassUnit.lb.toKg(160) - 72.5747792) < 1e-9)
    }
}
