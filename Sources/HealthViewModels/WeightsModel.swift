import Foundation
import HealthCore
import HealthModel

/// Which way a reading moved from the one before it.
public enum Change: Sendable, Equatable {
    case up, down, same, none
}

/// One reading as the weight table shows it.
public struct WeightRow: Sendable, Equatable, Identifiable {
    public var id: String
    /// "Fri Nov 20, 2026  07:30".
    public var date: String
    /// "72.4", in the displayed unit.
    public var weight: String
    /// "▲ 0.3", "▼ 1.2", "= 0.0", "" for the oldest loaded reading.
    public var change: String
    public var direction: Change
    /// Whether the change is welcome (a loss), for its colour; nil when there is none.
    public var isGood: Bool?
    /// Arrived with the last refresh: the view marks it.
    public var isNew: Bool
    /// The scale it came from: "Bathroom scale".
    public var source: String = ""
    /// Body fat the scale measured with it, "21.5" (%); "" when it measured none.
    public var bodyFat: String = ""
    /// Lean mass with it, in the displayed unit, "56.8" (weight less fat mass when the scale gave body fat
    /// alone); "" when neither.
    public var leanMass: String = ""
}

/// The person's weight history: the readings of all their scales newest first (or of one, with the
/// filter), paging older ones in, each with its scale; and above them the trend from all of them
/// (a chart over `span` and a summary line), so chart, table and summary speak of the same readings.
@MainActor
public final class WeightsModel {
    /// The person's default scale (`DevicesModel.defaultScale`): new readings go to it unless the filter names another.
    public let device: Device
    /// Every scale of the person, the table's sources.
    public private(set) var scales: [Device]
    /// nil: all scales; else the one the table shows.
    public private(set) var filter: Device?
    /// The table lists the weigh-ins kept aside instead: the same measurements as counted ones, come by a way
    /// counted later (`hmon sources prefer`). Never in the chart or the summary, which stay the counted ones'.
    public private(set) var showsAside = false
    public private(set) var unit: MassUnit
    public private(set) var rows: [WeightRow] = []
    /// The chart over `span`; nil with no weigh-in in it.
    public private(set) var chart: WeightChart?
    /// Trend weight, weekly rate, implied balance, BMI, goal, body fat, lean mass: most important first.
    public private(set) var summary: [SummaryItem] = []
    public private(set) var span = ChartSpan.days90
    public private(set) var selectedIndex = 0
    /// True while a load or a write of this screen runs.
    public var isRefreshing: Bool { loads.isRunning || writes.isRunning }
    public private(set) var isLoadingOlder = false
    /// False once a page came back short: there is nothing older to load.
    public private(set) var hasOlder = true
    public private(set) var problem: String?
    public private(set) var lastUpdated: Date?
    /// The inline "add a reading" prompt, when open.
    public private(set) var prompt: TextField?
    /// The reading the open prompt corrects; nil when it adds one.
    public private(set) var editing: String?
    /// The weigh-in the open y/n question would delete, and the question.
    public private(set) var deleting: (id: String, question: String)?
    /// The typed weight that is far from the trend (`WeighInPlausibility`: likely a typo), and the y/n
    /// question asked before saving it: "27.2 kg is 45.0 kg under your trend (72.2 kg) — save? y/n".
    public private(set) var farFromTrend: (kg: Double, time: Date?, question: String)?

    public static let pageSize = 20

    public var title: String { "Weight in \(unit.rawValue)" }
    public var subtitle: String {
        if showsAside { return "kept aside: came by two ways, counted once" }
        return filter?.name ?? (scales.count > 1 ? "all scales" : device.name)
    }
    /// Whether the table names each row's scale (more than one shown) or where it came from (an import's source).
    public var showsSource: Bool { showsScale || hasOrigins || showsAside }
    /// The source column's heading: "Scale" when it names scales, else "Source".
    public var sourceTitle: String { showsScale ? "Scale" : "Source" }
    private var showsScale: Bool { filter == nil && scales.count > 1 && !showsAside }
    /// Whether a loaded reading keeps where an import found it (its `source` field).
    private var hasOrigins = false
    /// Whether any weigh-in loaded carries body fat, or lean mass: the table then has that column, where wide enough.
    public private(set) var hasBodyFat = false
    public private(set) var hasLeanMass = false
    public var isEmpty: Bool { rows.isEmpty }

    private let service: any HealthService
    private let clock: Clock
    private let listLimit: Int
    let loads = LoadSlot(model: "weights")
    private let writes = WriteSlot(model: "weights")
    /// Readings loaded so far, newest first, in kg.
    private var messages: [Message] = []
    private var knownIDs: Set<String> = []
    private var newIDs: Set<String> = []
    private var trendDays: [TrendDay] = []
    private var bodyComposition: BodyCompositionSummary?
    private var profile: Profile?

    /// - Parameters:
    ///   - manifestUnit: the unit of the manifest's `weight` field ("kg" unless it says "lb").
    ///   - preferred: the profile's mass unit; shown instead of the manifest's when they differ.
    ///   - scales: every scale of the person (the table's sources); just `device` when empty.
    ///   - listLimit: the most weigh-ins one refresh asks for; tests page past a smaller one.
    public init(service: any HealthService, device: Device, manifest: Manifest, preferred: MassUnit?, clock: Clock,
                scales: [Device] = [], listLimit: Int = ScreenLimits.maxListed) {
        self.service = service
        self.listLimit = listLimit
        self.device = device
        self.scales = scales.contains { $0.id == device.id } ? scales : [device] + scales
        self.clock = clock
        self.unit = preferred ?? MassUnit(rawValue: manifest.field(Field.weight)?.unit ?? "kg") ?? .kg
    }

    // MARK: Loading

    /// Loads the newest readings (as many as are loaded already, at least `rows` and a page) and the trend.
    /// Rows that were not there before are marked new. A failure sets `problem` and keeps the rows.
    public func refresh(rows wanted: Int = WeightsModel.pageSize) -> Command {
        let list = RefreshedList(loaded: messages.count, wanted: max(Self.pageSize, wanted), limit: listLimit)
        let count = list.asked
        let today = clock.today, calendar = clock.calendar, service = service
        let sources = (filter.map { [$0] } ?? scales).map(\.id)
        let lookback = Self.lookback(for: span)
        let ask = WeightsScreenData.Ask(latestCount: count, devices: sources, days: today.adding(days: -(lookback - 1))...today,
                                    calendar: calendar)
        let aside = showsAside
        return Command(loads.load("latest \(count) of \(aside ? "those kept aside" : sources.joined(separator: ","))") {
            let screen = try await service.weightsScreen(ask)
            // Kept aside: every one there is (a few, one per measurement that came twice), newest first.
            let latest = aside ? try await service.asideReadings(from: 0, to: .max)
                .map(\.message).filter { $0.data[Field.weight]?.number != nil }.reversed().prefix(count).map { $0 } : screen.latest
            return (latest, screen.series, screen.profile, BodyCompositionSummary(trend: screen.composition))
        } apply: { [weak self] result in
            guard let self else { return .none }
            isLoadingOlder = false
            switch result {
            case .success(let (latest, series, profile, composition)):
                let isFirstLoad = lastUpdated == nil
                newIDs = isFirstLoad ? [] : Set(latest.map(\.mid)).subtracting(knownIDs)
                knownIDs.formUnion(latest.map(\.mid))
                (messages, hasOlder) = list.merge(fresh: latest, loaded: messages, hadOlder: hasOlder)
                if aside { hasOlder = false }
                trendDays = WeightTrendBuilder.days(series: series)
                bodyComposition = composition
                self.profile = profile
                // The profile is the one unit preference: `u` here, `p`, or `hmon profile set --unit`.
                unit = profile.massUnit
                problem = nil
                lastUpdated = clock.now()
                rebuild()
                if !newIDs.isEmpty { selectedIndex = 0 }
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    /// Loads the next page of older readings through the paged range query, then selects `select`
    /// (clamped to what is loaded) when given, and goes on loading pages until `filling` rows are loaded
    /// (a taller terminal) or there are no more.
    /// - Parameters:
    ///   - select: the row to select once the page is in (a move past the last row).
    ///   - wanted: keep loading pages until the table has this many rows (a taller terminal).
    ///   - toTheEnd: keep loading until there is nothing older, then select the oldest (End).
    public func loadOlder(thenSelect select: Int? = nil, filling wanted: Int = 0, toTheEnd: Bool = false,
                          then next: (@MainActor () -> Command)? = nil) -> Command {
        // End asks for the contract's largest page (100), so a long history arrives in few round trips.
        guard hasOlder, let page = OlderPage(before: messages, devices: filter.map { [$0] } ?? scales,
                                             pageSize: toTheEnd ? 100 : Self.pageSize, field: Field.weight)
        else { return .none }
        isLoadingOlder = true
        let service = service
        return Command(loads.load("older than \(messages.last!.ts)") {
            var pages: [MessagePage] = []
            for query in page.queries { pages.append(try await service.messages(query)) }
            return pages
        } apply: { [weak self] result in
            guard let self else { return .none }
            isLoadingOlder = false
            switch result {
            case .success(let pages):
                let (older, more) = page.merge(pages, loaded: messages)
                hasOlder = more
                messages.append(contentsOf: older)
                knownIDs.formUnion(older.map(\.mid))
                problem = nil
                rebuild()
                if let select { selectedIndex = min(max(select, 0), max(rows.count - 1, 0)) }
                if toTheEnd {
                    selectedIndex = max(rows.count - 1, 0)
                    if hasOlder { return loadOlder(toTheEnd: true) }
                }
                if rows.count < wanted && hasOlder { return loadOlder(filling: wanted) }
                if let next { return next() }
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    // MARK: Moving the selection

    /// Moves the selection; moving past the last row loads older readings and then moves on into them.
    public func moveSelection(by delta: Int) -> Command { movingSelection(by: delta) }

    public func moveToTop() { selectedIndex = 0 }
    public func moveToBottom() { selectedIndex = max(rows.count - 1, 0) }

    /// End: the oldest reading there is, loading the older pages first (one after another, each applied
    /// as it comes, so the table fills while it loads).
    public func moveToOldest() -> Command {
        moveToBottom()
        guard hasOlder, !isLoadingOlder else { return .none }
        return loadOlder(toTheEnd: true)
    }

    // MARK: Units

    /// `u`: kg ↔ lb, at once on this screen, and saved in the profile so every screen, the command line and
    /// the next launch read the same unit.
    public func toggleUnit() -> Command {
        unit = unit.toggled
        rebuild()
        let unit = unit
        let service = service
        return Command(writes.write("unit \(unit.rawValue)") {
            var profile = try await service.profile()
            profile.massUnit = unit
            try await service.updateProfile(profile)
            return profile
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let saved): profile = saved
            case .failure(let error): problem = "\(unit.rawValue) is shown, but could not be saved: \(describe(error))"
            }
            return .none
        })
    }

    // MARK: Which scales

    /// `f`: all scales → each scale in turn → all scales. The table reloads; the chart and the summary
    /// stay the person's, from all of them.
    /// `f`: all scales, then each scale (with several), then the weigh-ins kept aside, then all again.
    public func nextFilter() -> Command {
        if showsAside {
            showsAside = false
            filter = nil
        } else if let current = filter, let index = scales.firstIndex(where: { $0.id == current.id }) {
            if index + 1 < scales.count { filter = scales[index + 1] } else { (filter, showsAside) = (nil, true) }
        } else if scales.count > 1 {
            filter = scales.first
        } else {
            showsAside = true
        }
        messages = []
        knownIDs = []
        selectedIndex = 0
        hasOlder = true
        // What another scale shows is not news: no "new" marks on the first load after the switch.
        lastUpdated = nil
        rebuild()
        return refresh()
    }

    // MARK: The chart's span

    /// `]`: a longer span (30 days → 90 days → 1 year → all). All reloads with ten years behind it.
    public func longerSpan() -> Command { setSpan(span.longer) }
    /// `[`: a shorter span.
    public func shorterSpan() -> Command { setSpan(span.shorter) }

    /// Days of weigh-ins read for a span: the span, plus the 60 days the smoothing needs to forget its seed
    /// (0.9⁶⁰ < 0.2 %), so the trend on the span's first day is the trend a longer look-back would give.
    /// Not a year for every span: on a busy store a year of readings made R take 20 ms.
    static func lookback(for span: ChartSpan) -> Int { (span.days ?? 3650) + 60 }

    private func setSpan(_ new: ChartSpan) -> Command {
        guard new != span else { return .none }
        let needsMore = Self.lookback(for: new) > Self.lookback(for: span)
        span = new
        rebuild()
        return needsMore ? refresh(rows: rows.count) : .none
    }

    // MARK: Adding a reading

    public func openPrompt() {
        editing = nil
        deleting = nil
        // Always named, even with one scale: a person with a scale they did not expect learns of it here.
        prompt = TextField(label: "New weight in \(unit.rawValue) on \((filter ?? device).name)", limit: 40, hint: PromptReading.timeHint)
        problem = nil
    }

    public func cancelPrompt() {
        prompt = nil
        editing = nil
        farFromTrend = nil
    }
    public func promptType(_ character: Character) { prompt?.insert(character) }
    public func promptDeleteBackward() { promptEdit(.deleteBackward) }
    public func promptEdit(_ edit: TextEdit) { prompt?.apply(edit) }

    /// Posts the prompt's weight (in the displayed unit) to this device. The service checks the range
    /// exactly as `hmon add weight` does; its message shows in place and the prompt stays open to fix it.
    public func submitPrompt() -> Command {
        let unit = unit
        guard let entry = PromptReading.typedEntry(prompt, quantity: "a weight in \(unit.rawValue)", example: "72.4",
                                                   day: clock.today, clock: clock,
                                                   withUnit: { TypedQuantity.kg($0, unit: unit).map(unit.fromKg) }, problem: &problem)
        else { return .none }
        let value = entry.value
        // The range in the unit the person typed in (the store would say it in kg).
        if let outside = PromptReading.outsideRange(value, unit: unit) {
            problem = outside
            return .none
        }
        let kg = unit.toKg(value)
        if let far = farFromTrendCheck(kg: kg, at: entry.time) {
            farFromTrend = (kg, entry.time, "\(far.sentence(in: unit)) — save? y/n")
            return .none
        }
        return save(kg: kg, at: entry.time)
    }

    /// y to the question: saves the weight as typed.
    public func confirmFarFromTrend() -> Command {
        guard let far = farFromTrend else { return .none }
        farFromTrend = nil
        return save(kg: far.kg, at: far.time)
    }

    /// n (or Esc): back to the prompt, the weight still in it to fix.
    public func cancelFarFromTrend() { farFromTrend = nil }

    /// Judged against the trend of the weigh-ins before the day it goes to (the typed time's, else today's
    /// or the corrected one's): the loaded trend reaches back further than the check looks.
    private func farFromTrendCheck(kg: Double, at time: Date?) -> WeighInPlausibility.Far? {
        let date = time ?? editing.flatMap { id in messages.first { $0.mid == id } }?.date ?? clock.now()
        let weighIns = trendDays.compactMap { trend in trend.weightKg.map { (day: trend.day, kg: $0) } }
        return WeighInPlausibility.far(weightKg: kg, on: Day(date, in: clock.calendar), weighIns: weighIns)
    }

    private func save(kg: Double, at time: Date?) -> Command {
        if let editing { return saveCorrection(of: editing, kg: kg, at: time) }
        let message = NewMessage(sdid: (filter ?? device).id, ts: (time ?? clock.now()).millisecondsSince1970,
                                 data: [Field.weight: .number(kg)])
        let rowsLoaded = rows.count
        return writes.post(message, to: service, saved: { [weak self] in
            self?.prompt = nil
            return self?.refresh(rows: rowsLoaded) ?? .none
        }, failed: { [weak self] in self?.problem = $0 })
    }

    // MARK: Correcting and deleting a reading

    /// Opens the prompt on the selected weigh-in, holding its value: Enter saves the corrected weight,
    /// checked by the service exactly as a new one.
    public func openEditPrompt() {
        guard rows.indices.contains(selectedIndex) else { return }
        if refuseAside() { return }
        let row = rows[selectedIndex]
        deleting = nil
        editing = row.id
        prompt = TextField(label: "Weight in \(unit.rawValue) of \(row.date)", text: row.weight, limit: 40,
                           hint: "a new time may follow: 7:10, yesterday 7:10")
        problem = nil
    }

    private func saveCorrection(of id: String, kg: Double, at time: Date?) -> Command {
        let rowsLoaded = rows.count
        return writes.edit(reading: id, ReadingChange(ts: time?.millisecondsSince1970, data: [Field.weight: .number(kg)]),
                           in: service, saved: { [weak self] in
            guard let self else { return .none }
            prompt = nil
            editing = nil
            return refresh(rows: rowsLoaded)
        }, failed: { [weak self] in self?.problem = $0 })
    }

    /// Asks whether to delete the selected weigh-in (the screen shows the question, y/n answers it).
    public func askToDelete() {
        guard rows.indices.contains(selectedIndex), prompt == nil else { return }
        if refuseAside() { return }
        let row = rows[selectedIndex]
        deleting = (row.id, "Delete \(row.weight) \(unit.rawValue) of \(row.date)? y/n")
        problem = nil
    }

    public func cancelDelete() { deleting = nil }

    /// Deletes the weigh-in the question named; it leaves the table, the chart and the summary with the
    /// reload that follows.
    public func confirmDelete() -> Command {
        guard let id = deleting?.id else { return .none }
        deleting = nil
        let rowsLoaded = rows.count
        return writes.delete(reading: id, from: service, deleted: { [weak self] in
            guard let self else { return .none }
            messages.removeAll { $0.mid == id }
            rebuild()
            return refresh(rows: max(rowsLoaded - 1, 1))
        }, failed: { [weak self] in self?.problem = $0 })
    }

    // MARK: Display state

    /// "Bathroom scale", "Withings", or "Bathroom scale · Withings" with both.
    /// A weigh-in kept aside is the counted one's twin: it is changed by preferring its way, not by hand.
    private func refuseAside() -> Bool {
        guard showsAside else { return false }
        problem = "a weigh-in kept aside is not counted: `hmon sources prefer weight SOURCE` counts its way first"
        return true
    }

    static func source(scale: String?, origin: String?) -> String {
        [scale, origin].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " · ")
    }

    private func rebuild() {
        hasOrigins = messages.contains { $0.data[Field.source]?.textValue?.isEmpty == false }
        hasBodyFat = messages.contains { $0.data[Field.fatRatio]?.number != nil }
        hasLeanMass = hasBodyFat || messages.contains { $0.data[Field.fatFreeMass]?.number != nil }
        let formats = Formats(calendar: clock.calendar)
        let kgValues = messages.map { $0.data[Field.weight]?.number ?? 0 }
        let names = Dictionary(scales.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        rows = messages.enumerated().map { i, message in
            let value = unit.fromKg(kgValues[i])
            var row = WeightRow(id: message.mid, date: formats.tableDateTime(message.date),
                                weight: Formats.oneDecimal(value), change: "", direction: .none,
                                isGood: nil, isNew: newIDs.contains(message.mid),
                                source: Self.source(scale: showsScale ? names[message.sdid] : nil,
                                                    origin: message.data[Field.source]?.textValue))
            row.bodyFat = message.data[Field.fatRatio]?.number.map(Formats.oneDecimal) ?? ""
            // Measured lean mass, else weight − fat mass, as the summary's lean trend takes it (docs/methods.md).
            let fat = message.data[Field.fatRatio]?.number
            let lean = message.data[Field.fatFreeMass]?.number
                ?? fat.map { BodyComposition(weightKg: kgValues[i], fatPercent: $0).leanMassKg }
            row.leanMass = lean.map { Formats.oneDecimal(unit.fromKg($0)) } ?? ""
            if i + 1 < messages.count {
                // From the figures as shown (one decimal), so the column agrees with the weights beside it.
                let shown = { (kg: Double) in (self.unit.fromKg(kg) * 10).rounded() }
                let rounded = (shown(kgValues[i]) - shown(kgValues[i + 1])) / 10
                row.direction = rounded > 0 ? .up : rounded < 0 ? .down : .same
                row.change = Self.arrow(row.direction) + " " + Formats.oneDecimal(abs(rounded))
                row.isGood = row.direction == .same ? nil : row.direction == .down
            }
            return row
        }
        selectedIndex = min(selectedIndex, max(rows.count - 1, 0))
        rebuildTrend()
    }

    private func rebuildTrend() {
        let calendar = clock.calendar
        chart = WeightChartBuilder.chart(trendDays, span: span, today: clock.today, goalKg: profile?.goalKg, unit: unit,
                                         calendar: calendar)
        summary = TrendSummary(trend: trendDays, heightCm: profile?.heightCm, goalKg: profile?.goalKg)
            .map { TrendSummaryItems.items($0, unit: unit, energy: profile?.energyUnit ?? .kcal, calendar: calendar) } ?? []
        if !summary.isEmpty, let bodyComposition { summary += TrendSummaryItems.items(bodyComposition, unit: unit) }
    }

    static func arrow(_ change: Change) -> String {
        switch change {
        case .up: "▲"
        case .down: "▼"
        case .same: "="
        case .none: ""
        }
    }
}

extension WeightsModel: PagedReadingList {
    var rowCount: Int { rows.count }
    var selection: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    func loadOlderPage(thenSelect select: Int) -> Command { loadOlder(thenSelect: select) }
    func loadOlderPage(then next: @escaping @MainActor () -> Command) -> Command { loadOlder(then: next) }
    func rowText(_ index: Int) -> String {
        let row = rows[index]
        return [row.date, row.weight, row.change, row.source].joined(separator: "  ")
    }
    func rowDate(_ index: Int) -> Date { messages[index].date }
    var calendar: Calendar { clock.calendar }
    func say(_ problem: String) { self.problem = problem }
}
