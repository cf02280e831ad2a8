import Foundation
import HealthModel

/// What the insights are computed from: the profile and the day sums of the days they look at. The sums
/// are the costly part and come from where the readings are; the scan over them is cheap anywhere.
public struct InsightsScreenData: Sendable, Equatable {
    public struct Ask: Sendable, Equatable {
        public var today: Day
        public var calendar: Calendar
        /// The correlation window (365 by default; `--days`).
        public var windowDays: Int

        public init(today: Day, calendar: Calendar, windowDays: Int = CorrelationScan.windowDays) {
            self.today = today
            self.calendar = calendar
            self.windowDays = windowDays
        }

        public var days: ClosedRange<Day> { InsightsReport.neededDays(today: today, windowDays: windowDays) }
    }

    public var profile: Profile
    public var totals: [Day: DayTotals]
    public var nights: [NightFigures]

    public init(profile: Profile, totals: [Day: DayTotals], nights: [NightFigures] = []) {
        self.profile = profile
        self.totals = totals
        self.nights = nights
    }

    public func report(_ ask: Ask) -> InsightsReport {
        InsightsReport.compute(totals: totals, nights: nights, today: ask.today, profile: profile, calendar: ask.calendar,
                               windowDays: ask.windowDays)
    }
}

extension HealthService {
    /// The insights' inputs from the single calls.
    public func insightsScreenFromCalls(_ ask: InsightsScreenData.Ask) async throws -> InsightsScreenData {
        InsightsScreenData(profile: try await profile(), totals: try await dailyTotals(days: ask.days, calendar: ask.calendar),
                           nights: try await nightFigures(days: ask.days, calendar: ask.calendar))
    }

    /// The figures of the nights ending in `days` (`NightFigures`), the night before the first read too, for
    /// its regularity.
    public func nightFigures(days: ClosedRange<Day>, calendar: Calendar) async throws -> [NightFigures] {
        let nights = try await sleepNights(days: days.lowerBound.adding(days: -1)...days.upperBound, calendar: calendar)
        return NightFigures.of(nights, calendar: calendar).filter { days.contains($0.day) }
    }
}
