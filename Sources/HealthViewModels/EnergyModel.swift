import Foundation
import HealthCore

/// One figure of the energy panel: "Active  320 kcal".
public struct EnergyLine: Sendable, Equatable {
    public var label: String
    /// "1,234".
    public var value: String
    /// "kcal" or "kJ".
    public var unit: String
    /// Share of the larger of intake and expenditure, 0…1, for the bar.
    public var fraction: Double
}

/// One day of the week strip under the figures: "Mon Nov 16  −320 kcal".
public struct DayBalance: Sendable, Equatable {
    /// "Mon Nov 16".
    public var label: String
    /// "−320" (in the profile's unit), or "—" when the day's net cannot be known.
    public var net: String
    public var isSurplus: Bool
    /// |net| as a share of the largest |net| of the week, for the bar.
    public var fraction: Double
    /// The day shown above.
    public var isSelected: Bool
}

/// A day's energy balance: Active, Resting, Consumed and Net, in the profile's unit.
@MainActor
public final class EnergyModel {
    public private(set) var day: Day
    /// "Today · Sun, Nov 22, 2026" or "Fri, Nov 20, 2026".
    public private(set) var title = "Energy"
    public private(set) var unit: EnergyUnit = .kcal
    /// Active, Resting, Consumed (empty when the profile is incomplete and nothing is recorded).
    public private(set) var lines: [EnergyLine] = []
    /// "+250 kcal" / "−320 kcal"; nil while the profile is incomplete.
    public private(set) var net: String?
    /// Positive net: more eaten than spent.
    public private(set) var isSurplus = false
    /// "a deficit of 320 kcal" / "a surplus of 250 kcal" / "balanced".
    public private(set) var netMeaning = ""
    /// Active plus resting ("Spent"), when resting is known; on the same scale as the lines.
    public private(set) var spent: EnergyLine?
    /// Intake and expenditure as shares of the larger.
    public private(set) var intakeFraction = 0.0
    public private(set) var expenditureFraction = 0.0
    /// How resting was worked out: "Resting: Mifflin-St Jeor, 1,650 kcal/day" or "Resting: recorded basal energy".
    public private(set) var restingNote = ""
    /// "× 75% of the day so far · weight 72.4 kg"; empty when there is nothing to add.
    public private(set) var restingDetail = ""
    /// Profile fields the BMR needs and lacks: ["height", "birth date"].
    public private(set) var missing: [String] = []
    /// The command that fills them in: `hmon profile set --height-cm 175 --birth-date 1990-01-31`.
    public private(set) var fixCommand: String?
    /// The net of the seven days ending with the one shown, oldest first.
    public private(set) var week: [DayBalance] = []
    public private(set) var isRefreshing = false
    public private(set) var problem: String?
    public private(set) var lastUpdated: Date?
    public private(set) var prompt: TextField?
    /// The food log `a` writes to; nil when the user has none.
    public var foodLog: Device?

    public var isComplete: Bool { net != nil }
    public var isToday: Bool { day == clock.today }
    public var canGoForward: Bool { day < clock.today }

    private let service: any HealthService
    private let clock: Clock

    public init(service: any HealthService, clock: Clock) {
        self.service = service
        self.clock = clock
        self.day = clock.today
    }

    public func previousDay() async {
        day = day.adding(days: -1)
        await refresh()
    }

    public func nextDay() async {
        guard canGoForward else { return }
        day = day.adding(days: 1)
        await refresh()
    }

    public func goToToday() async {
        day = clock.today
        await refresh()
    }

    /// Reloads the day's summary. Never throws: a failure sets `problem` and keeps the last figures.
    public func refresh() async {
        isRefreshing = true
        defer { isRefreshing = false }
        do {
            async let profile = service.profile()
            let week = try await service.energySummaries(for: day.adding(days: -6)...day, now: clock.now(), calendar: clock.calendar)
            let unit = try await profile.energyUnit
            apply(week[week.count - 1], unit: unit)
            applyWeek(week, unit: unit)
            problem = nil
            lastUpdated = clock.now()
        } catch {
            problem = describe(error)
        }
    }

    private func apply(_ summary: EnergySummary, unit: EnergyUnit) {
        self.unit = unit
        let formats = Formats(calendar: clock.calendar)
        title = isToday ? "Today · \(formats.longDay(day))" : formats.longDay(day)
        let spent = summary.active + (summary.resting ?? 0)
        let scale = max(spent, summary.consumed, 1)
        func line(_ label: String, _ kcal: Double, _ fraction: Double) -> EnergyLine {
            EnergyLine(label: label, value: Formats.whole(unit.fromKcal(kcal)), unit: unit.rawValue, fraction: fraction)
        }
        lines = [
            line("Active", summary.active, summary.active / scale),
            line("Resting", summary.resting ?? 0, (summary.resting ?? 0) / scale),
            line("Consumed", summary.consumed, summary.consumed / scale),
        ]
        if summary.resting == nil { lines.remove(at: 1) }
        intakeFraction = summary.consumed / scale
        expenditureFraction = spent / scale
        self.spent = summary.resting == nil ? nil : line("Spent", spent, spent / scale)

        missing = summary.missing.map(\.rawValue)
        fixCommand = Self.fixCommand(for: summary.missing)
        if let netKcal = summary.net {
            let value = unit.fromKcal(netKcal)
            net = "\(Formats.signedWhole(value)) \(unit.rawValue)"
            isSurplus = value.rounded() > 0
            let amount = "\(Formats.whole(abs(value))) \(unit.rawValue)"
            netMeaning = value.rounded() > 0 ? "a surplus of \(amount)" : value.rounded() < 0 ? "a deficit of \(amount)" : "balanced"
        } else {
            net = nil
            isSurplus = false
            netMeaning = ""
        }
        switch summary.restingSource {
        case .estimated(let formula, let bmr, let fraction):
            restingNote = "Resting: \(formula.displayName) BMR, \(Formats.whole(unit.fromKcal(bmr))) \(unit.rawValue)/day"
            var detail: [String] = []
            if fraction < 0.9995 { detail.append("× \(Int((fraction * 100).rounded()))% of the day so far") }
            if let kg = summary.weightKg { detail.append("weight \(Formats.oneDecimal(kg)) kg") }
            restingDetail = detail.joined(separator: " · ")
        case .recorded:
            restingNote = "Resting: recorded basal energy"
            restingDetail = ""
        case nil:
            restingNote = ""
            restingDetail = ""
        }
    }

    private func applyWeek(_ days: [EnergySummary], unit: EnergyUnit) {
        let formats = Formats(calendar: clock.calendar)
        let largest = max(days.compactMap { $0.net.map(abs) }.max() ?? 1, 1)
        week = days.map { summary in
            DayBalance(label: formats.weekDay(summary.day),
                       net: summary.net.map { Formats.signedWhole(unit.fromKcal($0)) } ?? "—",
                       isSurplus: (summary.net ?? 0).rounded() > 0,
                       fraction: summary.net.map { abs($0) / largest } ?? 0,
                       isSelected: summary.day == day)
        }
    }

    /// `hmon profile set` with an example value for each missing profile field; a weight comes from a reading.
    static func fixCommand(for missing: [EnergySummary.Missing]) -> String? {
        var options: [String] = []
        var needsWeight = false
        for field in missing {
            switch field {
            case .height: options.append("--height-cm 175")
            case .birthDate: options.append("--birth-date 1990-01-31")
            case .sex: options.append("--sex female|male")
            case .weight: needsWeight = true
            }
        }
        var commands: [String] = []
        if !options.isEmpty { commands.append("hmon profile set " + options.joined(separator: " ")) }
        if needsWeight { commands.append("hmon add weight 72.4") }
        return commands.isEmpty ? nil : commands.joined(separator: " ; ")
    }

    // MARK: Logging consumed energy

    public func openPrompt() {
        guard foodLog != nil else {
            problem = "no food log to write to: add a device of type \"Calorie Tracker\" on the devices screen (a)"
            return
        }
        prompt = TextField(label: "Consumed energy in \(unit.rawValue)", limit: 12)
        problem = nil
    }

    public func cancelPrompt() { prompt = nil }
    public func promptType(_ character: Character) { prompt?.insert(character) }
    public func promptDeleteBackward() { prompt?.deleteBackward() }

    /// Posts the consumed energy to the food log, now (or at noon of a past day being viewed).
    public func submitPrompt() async {
        guard let text = prompt?.text.trimmingCharacters(in: .whitespaces), let foodLog else { return }
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
            problem = text.isEmpty
                ? "type the energy in \(unit.rawValue), like 650, or Esc to cancel"
                : "\"\(text)\" is not a number: type the energy in \(unit.rawValue), like 650"
            return
        }
        guard value >= 0 else {
            problem = "consumed energy cannot be negative: type a value like 650"
            return
        }
        let when = isToday ? clock.now() : day.start(in: clock.calendar).addingTimeInterval(12 * 3600)
        do {
            try await service.post(NewMessage(sdid: foodLog.id, ts: when.millisecondsSince1970,
                                              data: [Field.calories: .number(unit.toKcal(value))]))
            prompt = nil
            await refresh()
        } catch {
            problem = describe(error)
        }
    }
}
