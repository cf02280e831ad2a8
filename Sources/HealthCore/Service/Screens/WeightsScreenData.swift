import Foundation
import HealthModel

/// Everything the weights screen shows after a load: the newest weigh-ins for its table, the daily series
/// the chart and trend are drawn from, the profile (unit, goal), and the body composition trend.
public struct WeightsScreenData: Sendable, Equatable {
    public struct Ask: Sendable, Equatable {
        /// How many of the newest weigh-ins the table lists.
        public var latestCount: Int
        /// The scales whose weigh-ins the table lists (one when the screen is filtered to it).
        public var devices: [String]
        /// The days of the series: the chart's span and the look-back its trend needs.
        public var days: ClosedRange<Day>
        public var calendar: Calendar

        public init(latestCount: Int, devices: [String], days: ClosedRange<Day>, calendar: Calendar) {
            self.latestCount = latestCount
            self.devices = devices
            self.days = days
            self.calendar = calendar
        }
    }

    /// The newest weigh-ins of the asked devices, newest first.
    public var latest: [Message]
    public var series: WeightSeries
    public var profile: Profile
    /// Per day over the weighed days, oldest first (`BodyCompositionTrendBuilder`).
    public var composition: [BodyCompositionDay]

    public init(latest: [Message], series: WeightSeries, profile: Profile, composition: [BodyCompositionDay]) {
        self.latest = latest
        self.series = series
        self.profile = profile
        self.composition = composition
    }
}

extension HealthService {
    /// The weights screen from the single calls.
    public func weightsScreenFromCalls(_ ask: WeightsScreenData.Ask) async throws -> WeightsScreenData {
        var latest: [Message] = []
        for device in try await ownDevices(ask.devices) {
            latest += try await lastMessages(device: device, count: ask.latestCount, field: Field.weight)
        }
        latest.sort(by: Message.newestFirst)
        let series = try await weightSeries(days: ask.days, calendar: ask.calendar)
        // Body fat is read for the days weighed, so it waits for the weights.
        let weighIns = series.points.filter { !$0.isCarried }.map { (day: $0.day, kg: $0.kg) }
        let composition = try await bodyCompositionTrend(weighIns: weighIns, calendar: ask.calendar)
        return WeightsScreenData(latest: Array(latest.prefix(ask.latestCount)), series: series, profile: try await profile(),
                             composition: composition)
    }
}
