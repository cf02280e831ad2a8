import Foundation
import HealthModel

/// Everything the energy screen shows after a load: the week's balances ending on the day shown, the
/// profile's units, that day's food log entries and the recent ones (for `a` to offer), and, when asked,
/// the expenditure learned from the last 28 days.
public struct EnergyScreenData: Sendable, Equatable {
    public struct Ask: Sendable, Equatable {
        /// The week shown, its last day the day whose food log is listed.
        public var days: ClosedRange<Day>
        /// What "today so far" means for the resting energy.
        public var now: Date
        public var calendar: Calendar
        /// The food logs whose entries are listed.
        public var foodLogs: [String]
        /// Whether to learn the expenditure too (it reads months of weigh-ins: not on every day key).
        public var withLearned: Bool

        public init(days: ClosedRange<Day>, now: Date, calendar: Calendar, foodLogs: [String], withLearned: Bool) {
            self.days = days
            self.now = now
            self.calendar = calendar
            self.foodLogs = foodLogs
            self.withLearned = withLearned
        }
    }

    /// What the learned expenditure line shows.
    public struct Learned: Codable, Sendable, Equatable {
        public var expenditure: LearnedExpenditure.Estimate
        /// The formula's expenditure (BMR + active) over the same days, kcal per day.
        public var formulaKcalPerDay: Double?

        public init(expenditure: LearnedExpenditure.Estimate, formulaKcalPerDay: Double?) {
            self.expenditure = expenditure
            self.formulaKcalPerDay = formulaKcalPerDay
        }
    }

    /// How many of the newest entries the suggestions are drawn from.
    public static let recentEntries = 100
    /// The most entries of one day listed from one food log.
    public static let dayEntries = 100

    /// The balances of `Ask.days`, oldest first.
    public var week: [EnergySummary]
    public var profile: Profile
    /// The last day's entries that carry energy, oldest first.
    public var foodEntries: [Message]
    /// The logs' newest entries that carry a description, newest first.
    public var recentFoodEntries: [Message]
    public var learned: Learned?

    public init(week: [EnergySummary], profile: Profile, foodEntries: [Message], recentFoodEntries: [Message], learned: Learned?) {
        self.week = week
        self.profile = profile
        self.foodEntries = foodEntries
        self.recentFoodEntries = recentFoodEntries
        self.learned = learned
    }
}

extension HealthService {
    /// The energy screen from the single calls.
    public func energyScreenFromCalls(_ ask: EnergyScreenData.Ask) async throws -> EnergyScreenData {
        let week = try await energySummaries(for: ask.days, now: ask.now, calendar: ask.calendar)
        let start = ask.days.upperBound.start(in: ask.calendar), end = ask.days.upperBound.adding(days: 1).start(in: ask.calendar)
        var day: [Message] = []
        var recent: [Message] = []
        for log in try await ownDevices(ask.foodLogs) {
            let query = MessageQuery(sdid: log, startDate: start.millisecondsSince1970, endDate: end.millisecondsSince1970 - 1,
                                     order: .asc, count: EnergyScreenData.dayEntries)
            day += try await messages(query).messages
            recent += try await lastMessages(device: log, count: EnergyScreenData.recentEntries, field: Field.comments)
        }
        day.sort { ($0.ts, $0.mid) < ($1.ts, $1.mid) }
        recent.sort { $0.ts > $1.ts }
        var learned: EnergyScreenData.Learned?
        if ask.withLearned {
            // The 28 days of the estimate and the 60 before them that the smoothing needs (0.9⁶⁰ < 0.2 %).
            let report = try await weightTrendReport(now: ask.now, calendar: ask.calendar, lookbackDays: LearnedExpenditure.windowDays + 60)
            learned = EnergyScreenData.Learned(expenditure: report.expenditure, formulaKcalPerDay: report.formulaKcalPerDay)
        }
        return EnergyScreenData(week: week, profile: try await profile(), foodEntries: day.filter { $0.data[Field.calories] != nil },
                            recentFoodEntries: recent, learned: learned)
    }
}
