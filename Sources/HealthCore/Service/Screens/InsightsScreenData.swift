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

    public init(profile: Profile, totals: [Day: DayTotals]) {
        self.profile = profile
        self.totals = totals
    }

    public func report(_ ask: Ask) -> InsightsReport {
        InsightsReport.compute(totals: totals, today: ask.today, profile: profile, calendar: ask.calendar, windowDays: ask.windowDays)
    }
}

extension HealthService {
    /// The insights' inputs from the single calls.
    public func insightsScreenFromCalls(_ ask: InsightsScreenData.Ask) async throws -> InsightsScreenData {
        InsightsScreenData(profile: try await profile(), totals: try await dailyTotals(days: ask.days, calendar: ask.calendar))
    }
}
