import Foundation
import HealthCore
import HealthModel

/// hmon's screen views (`GET /v1.1/hmon/views/screens/NAME`): everything one screen of the dashboard shows
/// after a load, in one answer, built from the single views' shapes. A remote dashboard's screen switch is
/// one request, and its R one more (a 304 when nothing changed). docs/server.md shows each shape and query.
extension HMonViews {
    /// Where the screen views live, under `prefix`.
    public static let screens = "screens"

    /// `…/screens/devices?since=MS&device=ID&count=N`: the devices screen, today's count per device (readings
    /// from `since` on), and the newest `count` readings of `device` (the first device when absent or gone).
    public struct DevicesScreenView: Codable, Sendable, Equatable {
        public var overview: DevicesView
        public var profile: Profile
        /// By device id; a device with no reading since `since` is absent.
        public var todayCounts: [String: Int]
        public var recentDevice: String?
        /// `recentDevice`'s newest readings, newest first.
        public var recent: [Message]
        /// The user's links as `views/sources` gives them; absent from a server before the sync doctor.
        public var links: [LinkHealthView]?

        public init(_ screen: DevicesScreenData) {
            overview = DevicesView(screen.overview)
            profile = screen.profile
            todayCounts = screen.todayCounts
            recentDevice = screen.recentDevice
            recent = screen.recent
            links = screen.links
        }

        public var screen: DevicesScreenData {
            DevicesScreenData(overview: overview.overview, profile: profile, todayCounts: todayCounts, recentDevice: recentDevice,
                              recent: recent, links: links ?? [])
        }
    }

    /// `…/screens/weights?from=DAY&to=DAY&tz=ZONE&devices=ID,ID&count=N`: the newest `count` weigh-ins of
    /// the devices, the daily weights of the span, the profile and the body composition trend of the span.
    public struct WeightsScreenView: Codable, Sendable, Equatable {
        public var latest: [Message]
        public var weights: WeightsView
        public var profile: Profile
        /// Per weighed day, oldest first: `measured` (absent between two measurements) and `trend`, each with
        /// `fatPercent`, `fatMassKg` and `leanMassKg`.
        public var composition: [BodyCompositionDay]

        public init(_ screen: WeightsScreenData) {
            latest = screen.latest
            weights = WeightsView(screen.series)
            profile = screen.profile
            composition = screen.composition
        }

        /// Nil when the daily weights end before they start.
        public var screen: WeightsScreenData? {
            weights.series.map { WeightsScreenData(latest: latest, series: $0, profile: profile, composition: composition) }
        }
    }

    /// `…/screens/energy?from=DAY&to=DAY&tz=ZONE&now=MS&foodLogs=ID,ID&learned=true`: the balances of the
    /// days, the profile, the last day's food log entries, the logs' recent described entries, and (with
    /// `learned=true`) the expenditure learned over the last 28 days.
    public struct EnergyScreenView: Codable, Sendable, Equatable {
        public var energy: EnergyView
        public var profile: Profile
        public var foodEntries: [Message]
        public var recentFoodEntries: [Message]
        /// `{"expenditure": {"learned": {"kcalPerDay", "foodDays", "weighInDays"}}` or
        /// `{"needsMoreData": {"foodDays", "weighInDays"}}`, and `formulaKcalPerDay`.
        public var learned: EnergyScreenData.Learned?

        public init(_ screen: EnergyScreenData) {
            energy = EnergyView(screen.week)
            profile = screen.profile
            foodEntries = screen.foodEntries
            recentFoodEntries = screen.recentFoodEntries
            learned = screen.learned
        }

        /// Nil when a day names a source or a missing part this client does not know.
        public var screen: EnergyScreenData? {
            energy.summaries.map {
                EnergyScreenData(week: $0, profile: profile, foodEntries: foodEntries, recentFoodEntries: recentFoodEntries, learned: learned)
            }
        }
    }

    /// `…/screens/hrv?devices=ID,ID&count=N&through=DAY&tz=ZONE`: the newest `count` readings of the HRV
    /// meters, and the day sums of the nights slept from the oldest of them through `through`.
    public struct HRVScreenView: Codable, Sendable, Equatable {
        public var measurements: [Message]
        public var nights: DailyTotalsView

        public init(_ screen: HRVScreenData) {
            measurements = screen.measurements
            nights = DailyTotalsView(screen.nights)
        }

        public var screen: HRVScreenData { HRVScreenData(measurements: measurements, nights: nights.totals) }
    }

    /// `…/screens/vitals?count=N`: the newest `count` readings of each vital sign (blood pressure, SpO2,
    /// breathing rate, body temperature, skin temperature change), newest first, each reading once; the
    /// names of their devices by id; and the profile, whose units the temperatures are shown in.
    public struct VitalsScreenView: Codable, Sendable, Equatable {
        public var readings: [Message]
        public var devices: [String: String]
        public var profile: Profile

        public init(_ screen: VitalsScreenData) {
            readings = screen.readings
            devices = screen.deviceNames
            profile = screen.profile
        }

        public var screen: VitalsScreenData { VitalsScreenData(readings: readings, deviceNames: devices, profile: profile) }
    }

    /// `…/screens/insights?today=DAY&tz=ZONE&days=N`: the profile and the day sums the insights over a
    /// window of `days` are computed from.
    public struct InsightsScreenView: Codable, Sendable, Equatable {
        public var profile: Profile
        public var totals: DailyTotalsView
        /// Optional: a server from before the nights' figures sends none, and the insights go without them.
        public var nights: [NightFigures]?

        public init(_ screen: InsightsScreenData) {
            profile = screen.profile
            totals = DailyTotalsView(screen.totals)
            nights = screen.nights
        }

        public var screen: InsightsScreenData { InsightsScreenData(profile: profile, totals: totals.totals, nights: nights ?? []) }
    }

    /// `…/screens/overview?from=DAY&to=DAY&tz=ZONE&now=MS`: the profile, the daily weights of the 120 days
    /// to `to`, the balance of each day, and the day sums from 60 days before `from` (the HRV baseline).
    public struct OverviewScreenView: Codable, Sendable, Equatable {
        public var profile: Profile
        public var weights: WeightsView
        public var energy: EnergyView
        public var totals: DailyTotalsView

        public init(_ screen: OverviewScreenData) {
            profile = screen.profile
            weights = WeightsView(screen.weights)
            energy = EnergyView(screen.energy)
            totals = DailyTotalsView(screen.totals)
        }

        /// Nil when the weights end before they start or a day's balance names what this client does not know.
        public var screen: OverviewScreenData? {
            guard let series = weights.series, let summaries = energy.summaries else { return nil }
            return OverviewScreenData(profile: profile, weights: series, energy: summaries, totals: totals.totals)
        }
    }
}
