import Foundation
import HealthModel

/// What the overview reads: the weight trend, the energy of each day shown, and the day sums (with the 60
/// days before the first shown, for the HRV baseline).
public struct OverviewScreenData: Sendable, Equatable {
    public struct Ask: Sendable, Equatable {
        /// The days shown, the last of them today.
        public var days: ClosedRange<Day>
        public var now: Date
        public var calendar: Calendar

        public init(days: ClosedRange<Day>, now: Date, calendar: Calendar) {
            self.days = days
            self.now = now
            self.calendar = calendar
        }

        /// The weights read: `weightDays` up to the last day shown.
        public var weightDays: ClosedRange<Day> { days.upperBound.adding(days: -(OverviewScreenData.weightDays - 1))...days.upperBound }
        /// The day sums read: the days shown and, before them, the HRV baseline's window.
        public var totalsDays: ClosedRange<Day> { days.lowerBound.adding(days: -HRVBaseline.windowDays)...days.upperBound }
    }

    /// The trend forgets its seed within weeks (0.9⁶⁰ < 0.2 %): four months give today's.
    public static let weightDays = 120

    public var profile: Profile
    public var weights: WeightSeries
    public var energy: [EnergySummary]
    public var totals: [Day: DayTotals]

    public init(profile: Profile, weights: WeightSeries, energy: [EnergySummary], totals: [Day: DayTotals]) {
        self.profile = profile
        self.weights = weights
        self.energy = energy
        self.totals = totals
    }
}

extension HealthService {
    /// The overview from the single calls.
    public func overviewScreenFromCalls(_ ask: OverviewScreenData.Ask) async throws -> OverviewScreenData {
        OverviewScreenData(
            profile: try await profile(),
            weights: try await weightSeries(days: ask.weightDays, calendar: ask.calendar),
            energy: try await energySummaries(for: ask.days, now: ask.now, calendar: ask.calendar),
            totals: try await dailyTotals(days: ask.totalsDays, calendar: ask.calendar))
    }
}
