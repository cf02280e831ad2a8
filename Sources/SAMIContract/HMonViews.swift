import Foundation
import HealthCore
import HealthModel

/// hmon's own views (`GET /v1.1/hmon/views/…`): a screen's data computed by the server's service where the
/// readings are, one request a screen, instead of the raw readings a client would page through to compute
/// it. Shared by `hmon serve` and `RemoteHealthService`, so the two cannot drift apart; docs/server.md shows
/// each shape. Days are `YYYY-MM-DD` in the time zone the request names (`tz`), energy in kcal, weight in kg.
public enum HMonViews {
    /// The path every view lives under.
    public static let prefix = "/v1.1/hmon/views"
    /// The last millisecond of the year 9999: the latest time a query may name.
    public static let latestTime: Int64 = 253_402_300_799_999
    /// The most readings one `readings` view returns.
    public static let maxReadings = 100_000

    /// `GET …/devices` → `{"data": DevicesView}`: the devices screen (the user, their devices, every type,
    /// the manifests of the types in use, each device's latest reading).
    public struct DevicesView: Codable, Sendable, Equatable {
        public var user: SAMI.UserJSON
        public var devices: [SAMI.DeviceJSON]
        public var deviceTypes: [SAMI.DeviceTypeJSON]
        /// By device type id.
        public var manifests: [String: Manifest]
        /// By device id.
        public var latestReadings: [String: Message]

        public init(_ overview: DevicesOverview) {
            user = SAMI.UserJSON(overview.user)
            devices = overview.devices.map(SAMI.DeviceJSON.init)
            deviceTypes = overview.deviceTypes.map(SAMI.DeviceTypeJSON.init)
            manifests = overview.manifests
            latestReadings = overview.latestReadings
        }

        public var overview: DevicesOverview {
            DevicesOverview(user: user.user, devices: devices.map(\.device), deviceTypes: deviceTypes.map(\.deviceType),
                            manifests: manifests, latestReadings: latestReadings)
        }
    }

    /// `GET …/weights?from=DAY&to=DAY&tz=ZONE` → `{"data": WeightsView}`: each day's weight (the mean of its
    /// weigh-ins, or the last one carried forward up to 30 days), the input of the trend.
    public struct WeightsView: Codable, Sendable, Equatable {
        public struct Point: Codable, Sendable, Equatable {
            public var day: Day
            public var kg: Double
            /// No weigh-in that day: the value was carried from an earlier one.
            public var carried: Bool
            /// How many weigh-ins were averaged (0 when carried).
            public var readings: Int
        }

        public var from: Day
        public var to: Day
        public var points: [Point]

        public init(_ series: WeightSeries) {
            from = series.days.lowerBound
            to = series.days.upperBound
            points = series.points.map { Point(day: $0.day, kg: $0.kg, carried: $0.isCarried, readings: $0.readings) }
        }

        /// Nil when `from` is after `to` (a server that is not hmon's could send that).
        public var series: WeightSeries? {
            guard from <= to else { return nil }
            return WeightSeries(days: from...to, points: points.map {
                DailyWeight(day: $0.day, kg: $0.kg, isCarried: $0.carried, readings: $0.readings)
            })
        }
    }

    /// `GET …/trend?days=N&tz=ZONE&now=MS` → `{"data": TrendView}`: the weight trend as `hmon trend` computes
    /// it (exponentially smoothed, over a year of weigh-ins) with its summary, and its last `days` days.
    public struct TrendView: Codable, Sendable, Equatable {
        public struct Summary: Codable, Sendable, Equatable {
            public var asOf: Day
            public var trendKg: Double
            public var latestWeighInKg: Double
            /// kg per week; absent with a single day of trend.
            public var weeklyKg: Double?
            public var change1WeekKg: Double?
            public var change2WeeksKg: Double?
            public var change4WeeksKg: Double?
            public var goalKg: Double?
            /// Where the trend stands against the goal: "maintaining" (within 1 kg), "reaches" (on `goalDay`),
            /// "beyondHorizon" (over three years away), "notApproaching"; absent without a goal.
            public var goal: String?
            public var goalDay: Day?
        }

        public struct Point: Codable, Sendable, Equatable {
            public var day: Day
            /// The day's weigh-in (mean of its readings); absent on a day without one.
            public var weightKg: Double?
            public var trendKg: Double
        }

        public var summary: Summary?
        public var days: [Point]

        private static func word(_ goal: GoalProjection) -> String {
            switch goal {
            case .maintaining: "maintaining"
            case .reaches: "reaches"
            case .beyondHorizon: "beyondHorizon"
            case .notApproaching: "notApproaching"
            }
        }

        private static func day(_ goal: GoalProjection) -> Day? {
            if case .reaches(let day) = goal { return day }
            return nil
        }

        public init(_ report: WeightTrendReport, lastDays: Int) {
            summary = report.summary.map { s in
                Summary(asOf: s.asOf, trendKg: s.trendKg, latestWeighInKg: s.latestWeighInKg, weeklyKg: s.weeklyKg,
                        change1WeekKg: s.change1WeekKg, change2WeeksKg: s.change2WeeksKg, change4WeeksKg: s.change4WeeksKg,
                        goalKg: s.goalKg, goal: s.goal.map(Self.word), goalDay: s.goal.flatMap(Self.day))
            }
            days = report.days.suffix(lastDays).map { Point(day: $0.day, weightKg: $0.weightKg, trendKg: $0.trendKg) }
        }
    }

    /// `GET …/hrv?now=MS` → `{"data": HRVView}`: the person's normal HRV range now (the mean of ln RMSSD over
    /// the 60 days before, ± half a standard deviation; none under 14 measurements) and the newest
    /// measurement rated against the range before it.
    public struct HRVView: Codable, Sendable, Equatable {
        public struct Baseline: Codable, Sendable, Equatable {
            public var lowMs: Double
            public var highMs: Double
            /// The measurements it is made of.
            public var measurements: Int
        }

        public struct Latest: Codable, Sendable, Equatable {
            public var ts: Int64
            public var rmssdMs: Double
            /// "green" (above the range), "yellow" (inside), "red" (below), or "building" (too few before it).
            public var rating: String
        }

        public var baseline: Baseline?
        public var latest: Latest?
        /// Measurements in the 60 days up to now.
        public var measurements: Int

        /// From the RMSSD measurements of the 60 days before `now` and the newest one's own 60 days.
        public init(history: [(date: Date, rmssdMs: Double)], now: Date) {
            let band = HRVBaseline.band(before: now, history: history)
            baseline = band.map { Baseline(lowMs: $0.lowMs, highMs: $0.highMs, measurements: $0.count) }
            let start = now.addingTimeInterval(-Double(HRVBaseline.windowDays) * 86_400)
            measurements = history.count { $0.date >= start && $0.date < now }
            latest = history.filter { $0.date < now }.max { $0.date < $1.date }.map { newest in
                let rating: String = switch HRVBaseline.verdict(rmssdMs: newest.rmssdMs, at: newest.date, history: history) {
                case .building: "building"
                case .rated(let color, _): color.rawValue
                }
                return Latest(ts: newest.date.millisecondsSince1970, rmssdMs: newest.rmssdMs, rating: rating)
            }
        }
    }

    /// `GET …/sleep?through=DAY&days=N&need=MIN&tz=ZONE` → `{"data": SleepView}`: the nights of the `days` days
    /// (30 unless asked) ending on `through`, newest first, each with its measures and stages, and the Sleep
    /// Regularity Index over 7 and 30 days, the 14-night debt against `need` minutes (480 unless asked) and
    /// the spread of bed and wake times (`docs/methods.md`). The Sleep screen, `hmon sleep --json` and a remote
    /// dashboard read this one value.
    public typealias SleepView = SleepReport

    /// `GET …/energy?from=DAY&to=DAY&tz=ZONE&now=MS` → `{"data": EnergyView}`: each day's balance, in kcal.
    public struct EnergyView: Codable, Sendable, Equatable {
        public struct Resting: Codable, Sendable, Equatable {
            /// "estimated" (from the BMR formula) or "recorded" (basal energy readings).
            public var source: String
            public var formula: BMRFormula?
            public var bmrPerDay: Double?
            /// The part of the day gone by `now` (1 for a past day).
            public var fractionOfDay: Double?
        }

        public struct DayBalance: Codable, Sendable, Equatable {
            public var day: Day
            public var active: Double
            public var consumed: Double
            public var resting: Double?
            /// consumed − active − resting; absent while `missing` names what the BMR lacks.
            public var net: Double?
            public var restingSource: Resting?
            /// What the profile lacks for the BMR ("height", "birth date", "sex", "weight").
            public var missing: [String]
            public var weightKg: Double?
        }

        public var days: [DayBalance]

        public init(_ summaries: [EnergySummary]) {
            days = summaries.map { summary in
                let resting: Resting? = summary.restingSource.map { source in
                    switch source {
                    case .recorded:
                        Resting(source: "recorded")
                    case .estimated(let formula, let bmrPerDay, let fraction):
                        Resting(source: "estimated", formula: formula, bmrPerDay: bmrPerDay, fractionOfDay: fraction)
                    }
                }
                return DayBalance(day: summary.day, active: summary.active, consumed: summary.consumed, resting: summary.resting,
                                  net: summary.net, restingSource: resting, missing: summary.missing.map(\.rawValue),
                                  weightKg: summary.weightKg)
            }
        }

        /// Nil when a day names a source or a missing part this client does not know.
        public var summaries: [EnergySummary]? {
            var result: [EnergySummary] = []
            for day in days {
                var source: EnergySummary.RestingSource?
                switch day.restingSource?.source {
                case nil: source = nil
                case "recorded": source = .recorded
                case "estimated":
                    guard let formula = day.restingSource?.formula, let bmr = day.restingSource?.bmrPerDay,
                          let fraction = day.restingSource?.fractionOfDay else { return nil }
                    source = .estimated(formula, bmrPerDay: bmr, fractionOfDay: fraction)
                default: return nil
                }
                let missing = day.missing.compactMap(EnergySummary.Missing.init(rawValue:))
                guard missing.count == day.missing.count else { return nil }
                result.append(EnergySummary(day: day.day, active: day.active, consumed: day.consumed, resting: day.resting,
                                            restingSource: source, missing: missing, weightKg: day.weightKg))
            }
            return result
        }
    }

    /// `GET …/daily-totals?from=DAY&to=DAY&tz=ZONE` → `{"data": DailyTotalsView}`: what each day's readings
    /// add up to, per field (`sum` and `count`), the input of the insights. Days without readings are absent.
    public struct DailyTotalsView: Codable, Sendable, Equatable {
        public struct DayTotalsJSON: Codable, Sendable, Equatable {
            public var day: Day
            /// By the reading's field name ("weight", "consumedEnergy"…).
            public var totals: [String: SumCountJSON]
        }

        public struct SumCountJSON: Codable, Sendable, Equatable {
            public var sum: Double
            public var count: Int
        }

        public var days: [DayTotalsJSON]

        public init(_ totals: [Day: DayTotals]) {
            days = totals.sorted { $0.key < $1.key }.map { day, dayTotals in
                var fields: [String: SumCountJSON] = [:]
                for kind in ReadingKind.daySlots {
                    let value = dayTotals[kind]
                    if value.count > 0 { fields[kind.field] = SumCountJSON(sum: value.sum, count: value.count) }
                }
                return DayTotalsJSON(day: day, totals: fields)
            }
        }

        /// Fields this client does not add up by day are left out.
        public var totals: [Day: DayTotals] {
            var result: [Day: DayTotals] = [:]
            for entry in days {
                var totals = DayTotals()
                for kind in ReadingKind.daySlots {
                    if let value = entry.totals[kind.field] { totals[kind] = SumCount(sum: value.sum, count: value.count) }
                }
                result[entry.day] = totals
            }
            return result
        }
    }

    /// `GET …/readings?from=MS&to=MS&field=NAME&order=asc|desc&limit=N` → `{"data": {"readings": [Message]}}`:
    /// every device's readings in `[from, to)`, merged in time order (the HRV list, a reading's search).
    public struct ReadingsView: Codable, Sendable, Equatable {
        public var readings: [Message]

        public init(readings: [Message]) { self.readings = readings }
    }
}
