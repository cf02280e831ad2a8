import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

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
    /// "−320" (in the profile's unit), "not logged" when no food was logged that day (its net would
    /// only be a made-up deficit), or "—" when the day's net cannot be known.
    public var net: String
    public var isSurplus: Bool
    /// |net| as a share of the largest |net| of the logged days of the week, for the bar; 0 with no bar.
    public var fraction: Double
    /// The day shown above.
    public var isSelected: Bool
    /// Food was logged that day.
    public var isLogged: Bool
    /// Today: the day is not over, its figures are so far.
    public var isPartial: Bool
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
    /// What the person's own data says they spend, beside the formula: "Learned from your data: 2,385 kcal/day
    /// · formula (BMR + active) 2,310 · 26 days of food logs, 28 of weigh-ins", or what it still needs; nil until
    /// loaded.
    public private(set) var learnedExpenditure: String?
    /// Profile fields the BMR needs and lacks: ["height", "birth date"].
    public private(set) var missing: [String] = []
    /// The command that fills them in: `hmon profile set --height-cm 175 --birth-date 1990-01-31`.
    public private(set) var fixCommand: String?
    /// The net of the seven days ending with the one shown, oldest first.
    public private(set) var week: [DayBalance] = []
    public internal(set) var problem: String?
    public private(set) var lastUpdated: Date?
    public internal(set) var prompt: TextField?
    /// The day's food log entries, oldest first: "12:31  Banana  105 kcal".
    public private(set) var foodEntries: [FoodEntry] = []
    /// The entry `e` and `d` act on (an index into `foodEntries`): the newest until ↑/↓ move it.
    public internal(set) var selectedEntry: Int?
    /// True once ↑/↓, `e` or `d` went to the food log: a narrow screen then shows it in the week's place.
    public internal(set) var isBrowsingFoodLog = false
    /// The entry the open prompt corrects (`e`); nil while it logs a new one.
    public internal(set) var editingEntry: FoodEntry?
    /// The entry the open y/n question would delete, and the question.
    public internal(set) var deleting: (id: String, question: String)?
    /// While the description step of `a` is open: recent descriptions that match what is typed, newest first.
    public private(set) var suggestions: [String] = []
    /// The suggestion ↑/↓ picked, if any.
    public private(set) var suggestionIndex: Int?
    /// True while `a` asks what was eaten (after the amount).
    public var isDescribing: Bool { pendingKcal != nil }
    var pendingKcal: Double?
    /// The time typed after the amount, if any: the entry is for then.
    var pendingTime: Date?
    /// What the person wrote in their food logs lately, newest first, each once.
    private var recentDescriptions: [String] = []

    public var isComplete: Bool { net != nil }
    public var isToday: Bool { day == clock.today }
    public var canGoForward: Bool { day < clock.today }
    /// True while a load or a write of this screen runs.
    public var isRefreshing: Bool { loads.isRunning || writes.isRunning }
    /// The day the figures on screen belong to (the title's day); `day` may already be ahead of it
    /// while its load runs.
    public private(set) var shownDay: Day?

    let service: any HealthService
    private let clock: Clock
    private let foodLogSource: @MainActor () -> Device?
    let loads = LoadSlot(model: "energy")
    let writes = WriteSlot(model: "energy")

    /// - Parameter foodLog: where `a` writes: the user's food log as the devices screen last loaded it.
    /// - Parameter devicesChanged: what to run after this model made a device (the devices screen reloads).
    /// - Parameter foodLogs: every device whose readings carry consumed energy, whose entries the screen lists
    ///   (by default the one `foodLog` names).
    public init(service: any HealthService, clock: Clock, foodLog: @escaping @MainActor () -> Device? = { nil },
                foodLogs: (@MainActor () -> [Device])? = nil,
                devicesChanged: @escaping @MainActor () -> Command = { .none }) {
        self.service = service
        self.clock = clock
        self.day = clock.today
        self.foodLogSource = foodLog
        self.foodLogsSource = foodLogs ?? { foodLog().map { [$0] } ?? [] }
        self.deviceListChanged = devicesChanged
    }

    private let foodLogsSource: @MainActor () -> [Device]
    /// A food log made by this screen's first entry, before the devices screen has reloaded.
    private var madeFoodLog: Device?

    private let deviceListChanged: @MainActor () -> Command
    /// Something done that the person should hear of once ("made a food log"); the screen shows it.
    public var notice: String?

    /// The profile's mass unit, for the weight the resting figure was computed from.
    private var massUnit: MassUnit = .kg

    /// The food log `a` writes to; nil when the user has none.
    public var foodLog: Device? { foodLogSource() }

    public func previousDay() -> Command {
        day = day.adding(days: -1)
        return refresh()
    }

    public func nextDay() -> Command {
        guard canGoForward else { return .none }
        day = day.adding(days: 1)
        return refresh()
    }

    public func goToToday() -> Command {
        day = clock.today
        return refresh()
    }

    /// Loads the week ending on `day`. A failure sets `problem` and keeps the last figures; an answer for a
    static func learnedText(_ learned: EnergyScreenData.Learned, unit: EnergyUnit) -> String {
        func energy(_ kcal: Double) -> String { "\(Formats.whole(unit.fromKcal(kcal))) \(unit.rawValue)/day" }
        let formula = learned.formulaKcalPerDay.map { " · formula (BMR + active) \(Formats.whole(unit.fromKcal($0)))" } ?? ""
        switch learned.expenditure {
        case let .learned(kcalPerDay, foodDays, weighInDays):
            // The figures first: on a narrow screen the cut falls on the days behind them.
            return "Learned from your data: \(energy(kcalPerDay))\(formula) · \(foodDays) days of food logs, \(weighInDays) of weigh-ins"
        case let .needsMoreData(foodDays, weighInDays):
            return "Learned expenditure needs \(LearnedExpenditure.minimumDays) days of food logs and weigh-ins in the last "
                + "\(LearnedExpenditure.windowDays) (has \(foodDays) and \(weighInDays))"
        }
    }

    /// day the user has already left is dropped, so the screen always ends on the day asked for last.
    /// - Parameter withLearned: also learn the expenditure over the 28 days before today; it does not depend
    ///   on the day shown, so day keys leave it as it is, and R and opening the screen ask for it.
    public func refresh(withLearned: Bool = false) -> Command {
        let day = self.day, service = service, clock = clock
        var found = foodLogsSource()
        if let made = madeFoodLog, !found.contains(where: { $0.id == made.id }) { found.append(made) }
        let ask = EnergyScreenData.Ask(days: day.adding(days: -6)...day, now: clock.now(), calendar: clock.calendar,
                                   foodLogs: found.map(\.id), withLearned: withLearned)
        return Command(loads.load("week ending \(day)") {
            try await service.energyScreen(ask)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let screen):
                let week = screen.week, unit = screen.profile.energyUnit
                massUnit = screen.profile.massUnit
                apply(week[week.count - 1], unit: unit)
                applyWeek(week, unit: unit)
                let selectedID = selectedEntry.flatMap { foodEntries.indices.contains($0) ? foodEntries[$0].id : nil }
                foodEntries = FoodLogEntries.rows(screen.foodEntries, unit: unit, calendar: clock.calendar)
                keepSelection(on: selectedID)
                recentDescriptions = FoodLogEntries.descriptions(newestFirst: screen.recentFoodEntries)
                if let learned = screen.learned { learnedExpenditure = Self.learnedText(learned, unit: unit) }
                problem = nil
                lastUpdated = clock.now()
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    private func apply(_ summary: EnergySummary, unit: EnergyUnit) {
        self.unit = unit
        let formats = Formats(calendar: clock.calendar)
        // Titled with the day the figures are for, never the day the cursor has moved on to.
        shownDay = summary.day
        title = summary.day == clock.today ? "Today · \(formats.longDay(summary.day))" : formats.longDay(summary.day)
        let spent = summary.active + (summary.resting ?? 0)
        let scale = max(spent, summary.consumed, 1)
        // The figures shown add up as shown: Spent and Net are summed from the rounded parts (`ShownEnergy`).
        let shown = ShownEnergy(summary, unit: unit)
        func line(_ label: String, _ value: Int, _ fraction: Double) -> EnergyLine {
            EnergyLine(label: label, value: Formats.whole(Double(value)), unit: unit.rawValue, fraction: fraction)
        }
        lines = [
            line("Active", shown.active, summary.active / scale),
            line("Resting", shown.resting ?? 0, (summary.resting ?? 0) / scale),
            line("Consumed", shown.consumed, summary.consumed / scale),
        ]
        if summary.resting == nil { lines.remove(at: 1) }
        intakeFraction = summary.consumed / scale
        expenditureFraction = spent / scale
        self.spent = shown.spent.map { line("Spent", $0, spent / scale) }

        missing = summary.missing.map(\.rawValue)
        fixCommand = Self.fixCommand(for: summary.missing)
        if shown.net != nil, summary.consumed <= 0 {
            // No food logged: what is spent is known, the balance is not; the week's row says the same.
            net = "not logged"
            isSurplus = false
            netMeaning = ""
        } else if let value = shown.net {
            net = "\(Formats.signedWhole(Double(value))) \(unit.rawValue)"
            isSurplus = value > 0
            let amount = "\(Formats.whole(Double(abs(value)))) \(unit.rawValue)"
            netMeaning = value > 0 ? "a surplus of \(amount)" : value < 0 ? "a deficit of \(amount)" : "balanced"
        } else {
            net = nil
            isSurplus = false
            netMeaning = ""
        }
        switch summary.restingSource {
        case .estimated(let formula, let bmr, let fraction):
            restingNote = "Resting: \(formula.displayName) BMR, \(Formats.whole(unit.fromKcal(bmr))) \(unit.rawValue)/day"
            var detail: [String] = []
            if fraction < 0.9995 { detail.append("× \(Int(rounding: fraction * 100))% of the day so far") }
            if let kg = summary.weightKg { detail.append("weight \(QuantityText(massUnit: massUnit).text(kg, .mass))") }
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
        // A day without a food log is a gap, not a deficit of the whole day's spending.
        let logged = days.filter { $0.consumed > 0 }
        let largest = max(logged.compactMap { $0.net.map(abs) }.max() ?? 1, 1)
        let today = clock.today
        week = days.map { summary in
            let isLogged = summary.consumed > 0
            let net = isLogged ? summary.net : nil
            let shownNet = ShownEnergy(summary, unit: unit).net
            return DayBalance(label: formats.weekDay(summary.day),
                              net: shownNet == nil ? "—" : isLogged ? Formats.signedWhole(Double(shownNet ?? 0)) : "not logged",
                              isSurplus: isLogged && (shownNet ?? 0) > 0,
                              fraction: net.map { abs($0) / largest } ?? 0,
                              isSelected: summary.day == days.last?.day,
                              isLogged: isLogged,
                              isPartial: summary.day == today)
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

    /// `a`: asks for the energy eaten. A person without a food log gets one made with the first entry
    /// (see `submitPrompt`), not a detour through the devices screen.
    public func openPrompt() {
        editingEntry = nil
        deleting = nil
        prompt = TextField(label: "Consumed energy in \(unit.rawValue)", limit: 40, hint: PromptReading.timeHint)
        problem = nil
    }

    public func cancelPrompt() {
        prompt = nil
        editingEntry = nil
        pendingKcal = nil
        pendingTime = nil
        suggestions = []
        suggestionIndex = nil
    }

    public func promptType(_ character: Character) {
        prompt?.insert(character)
        if isDescribing { filterSuggestions() }
    }

    public func promptDeleteBackward() { promptEdit(.deleteBackward) }

    public func promptEdit(_ edit: TextEdit) {
        prompt?.apply(edit)
        if isDescribing { filterSuggestions() }
    }

    /// ↑/↓ while describing: picks a recent description into the field.
    public func moveSuggestion(by step: Int) {
        guard isDescribing, !suggestions.isEmpty else { return }
        let next = suggestionIndex.map { $0 + step } ?? (step > 0 ? 0 : suggestions.count - 1)
        let index = min(max(next, 0), suggestions.count - 1)
        suggestionIndex = index
        prompt = TextField(label: prompt?.label ?? "", text: suggestions[index], limit: 80)
    }

    /// The recent descriptions containing what is typed (any case), newest first, at most five.
    private func filterSuggestions() {
        let typed = prompt?.text.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        suggestions = Array(recentDescriptions.filter { typed.isEmpty || $0.lowercased().contains(typed) }.prefix(5))
        suggestionIndex = nil
    }

    /// Posts the consumed energy to the food log, now (or at noon of a past day being viewed), then reloads.
    public func submitPrompt() -> Command {
        // Two steps: the amount, then what it was (optional; Enter on an empty line skips it).
        guard let kcal = pendingKcal else {
            let unit = unit
            guard let entry = PromptReading.typedEntry(prompt, quantity: "the energy in \(unit.rawValue)", example: "650",
                                                       day: day, clock: clock,
                                                       withUnit: { TypedQuantity.kcal($0, unit: unit).map(unit.fromKcal) }, problem: &problem)
            else { return .none }
            let value = entry.value
            guard value >= 0 else {
                problem = "consumed energy cannot be negative: type a value like 650"
                return .none
            }
            let kcal = unit.toKcal(value)
            // Checked before asking what it was, in the unit typed.
            if let outside = PromptReading.outsideRange(value, unit: unit) {
                problem = outside
                return .none
            }
            pendingKcal = kcal
            pendingTime = entry.time
            problem = nil
            prompt = TextField(label: editingEntry == nil ? "What was it (optional, ↑↓ recent)" : "What was it (↑↓ recent)",
                               text: editingEntry?.description ?? "", limit: 80)
            filterSuggestions()
            return .none
        }
        let description = prompt?.text.trimmingCharacters(in: .whitespaces) ?? ""
        if let editingEntry { return saveCorrection(of: editingEntry, kcal: kcal, description: description, at: pendingTime) }
        let when = pendingTime ?? (isToday ? clock.now() : day.start(in: clock.calendar).addingTimeInterval(12 * 3600))
        var entry: [String: FieldValue] = [Field.calories: .number(kcal)]
        if !description.isEmpty { entry[Field.comments] = .text(description) }
        let data = entry
        if let foodLog {
            let message = NewMessage(sdid: foodLog.id, ts: when.millisecondsSince1970, data: data)
            return writes.post(message, to: service, saved: { [weak self] in
                self?.cancelPrompt()
                return self?.refresh() ?? .none
            }, failed: { [weak self] in self?.problem = $0 })
        }
        // No food log yet: the first entry makes one ("Food log"), then goes to it.
        let service = service
        return Command(writes.write("first food log entry") {
            let log = try await service.device(recording: Field.calories, orMake: .calorieTracker)
            _ = try await service.post(NewMessage(sdid: log.device.id, ts: when.millisecondsSince1970, data: data))
            return log
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let log):
                cancelPrompt()
                madeFoodLog = log.device
                if log.created { notice = "made a food log, \"\(log.device.name)\", for your entries" }
                return refresh() + deviceListChanged()
            case .failure(let error):
                problem = describe(error)
                return .none
            }
        })
    }
}
