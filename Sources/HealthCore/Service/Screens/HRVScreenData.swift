import Foundation
import HealthModel

/// Everything the HRV screen shows after a load: the newest measurements of the HRV meters, and the day
/// sums of the nights slept beside them (time asleep next to the morning's HRV).
public struct HRVScreenData: Sendable, Equatable {
    public struct Ask: Sendable, Equatable {
        public var latestCount: Int
        public var meters: [String]
        /// The last day whose night is read (today).
        public var through: Day
        public var calendar: Calendar

        public init(latestCount: Int, meters: [String], through: Day, calendar: Calendar) {
            self.latestCount = latestCount
            self.meters = meters
            self.through = through
            self.calendar = calendar
        }
    }

    /// The meters' newest readings, newest first, at most `Ask.latestCount`; those whose beats were refused
    /// (no RMSSD) too, since every reading of an HRV meter is a measurement.
    public var measurements: [Message]
    /// The day sums of the days from the oldest measurement on that have a night's sleep.
    public var nights: [Day: DayTotals]

    public init(measurements: [Message], nights: [Day: DayTotals]) {
        self.measurements = measurements
        self.nights = nights
    }
}

extension HealthService {
    /// The HRV screen from the single calls.
    public func hrvScreenFromCalls(_ ask: HRVScreenData.Ask) async throws -> HRVScreenData {
        var all: [Message] = []
        for id in try await ownDevices(ask.meters) { all += try await lastMessages(device: id, count: ask.latestCount, field: nil) }
        all.sort(by: Message.newestFirst)
        let measurements = Array(all.prefix(ask.latestCount))
        return HRVScreenData(measurements: measurements, nights: try await nights(beside: measurements, through: ask.through, calendar: ask.calendar))
    }

    /// The day sums of the days from the oldest of `measurements` through `last` that have a night's sleep.
    public func nights(beside measurements: [Message], through last: Day, calendar: Calendar) async throws -> [Day: DayTotals] {
        guard let oldest = measurements.map(\.date).min(), Day(oldest, in: calendar) <= last else { return [:] }
        return try await dailyTotals(days: Day(oldest, in: calendar)...last, calendar: calendar)
            .filter { $0.value[.sleep].count > 0 || $0.value[.timeInBed].count > 0 }
    }
}
