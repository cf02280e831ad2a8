import Foundation
import HealthCore
import HealthModel

/// One of Welltory's three scores as a gauge: its fraction, its text and its colour.
public struct HRVGauge: Sendable, Equatable {
    /// "Stress".
    public var label: String
    /// 0–1, the filled part of the gauge.
    public var fraction: Double
    /// "32 %".
    public var value: String
    public var color: HRVColor
}

/// The latest measurement, ready to draw.
public struct HRVLatest: Sendable, Equatable {
    /// "Nov 20, 2026 07:30 · Welltory".
    public var heading: String
    /// Welltory's scores, from the latest measurement that has them (a watch's measurement has none).
    public var gauges: [HRVGauge]
    /// "scores from Welltory, Nov 17, 2026 06:51" when they come from an earlier measurement than the latest.
    public var scoresFrom: String?
    /// ("RMSSD", "90.3 ms"), ("SDNN", "45.1 ms"), ("Power", "100 ms²"), ("Heart rate", "62 bpm").
    public var figures: [HRVFigure]
    /// The RMSSD's colour and what it means: Welltory's, or the baseline's.
    public var rmssdColor: HRVColor
    /// "above your normal range (HRV4Training baseline)", "building your baseline (5 of 14)".
    public var baselineNote: String
    /// The share link of the measurement the scores come from, when Welltory gave a token.
    public var shareLink: String?
}

public struct HRVFigure: Sendable, Equatable {
    public var label: String
    public var value: String
}

/// RMSSD by day over the chosen period, with the baseline band.
public struct HRVTrend: Sendable, Equatable {
    /// One value a day, oldest first; nil for a day without a measurement.
    public var values: [Double?]
    /// "30 days, Oct 24 – Nov 22".
    public var period: String
    /// "normal 42.1–51.3 ms" or "no baseline yet".
    public var band: String
    /// The band in ms, for the chart's shading; nil while building.
    public var bandLowMs: Double?
    public var bandHighMs: Double?
    /// The chart's scale: "92.0" and "31.5".
    public var axisHigh: String
    public var axisLow: String
    /// The chart's scale in ms: the days' values and the band.
    public var scale: ClosedRange<Double>
    /// The chart's x labels, x in days from the first day shown (weekly over 30 days, months over 90).
    public var xTicks: [WeightChart.Tick]
}

/// One measurement as the table shows it.
public struct HRVRow: Sendable, Equatable, Identifiable {
    public var id: String
    /// "Fri Nov 20, 2026  07:30".
    public var date: String
    /// hmon's or Welltory's figures ("—" when the beats were refused).
    public var rmssd: String
    public var sdnn: String
    /// Apple's own SDNN, the Apple Health record's value the beats came in ("—" for other measurements).
    public var appleSDNN: String
    public var stress: String
    public var heartRate: String
    /// Time asleep in the night that ended on the measurement's day: "7 h 30", "—" without one.
    public var sleep: String
    public var color: HRVColor
    /// "Good", "Normal", "Bad", "—" while the baseline is building, "refused" when the beats were.
    public var word: String
    /// "Welltory", "beats", "by hand", "watch".
    public var source: String
    /// "beats refused: no variability": why a watch's beat list gave no figures (nil when it gave them).
    public var refusal: String?
}

/// The HRV screen's state: the latest measurement, RMSSD over 30 or 90 days with the baseline band, and
/// the measurements newest first, paging older ones in as the selection moves past the last. The
/// measurements are the person's from all their HRV meters (Welltory's and a watch's imported beats are
/// one history, rated against one baseline); `a` adds to the meter the screen was opened on.
/// Colours are Welltory's when it gave them, else HRV4Training's baseline.
@MainActor
public final class HRVModel {
    /// The meter a measurement added by hand goes to.
    public let device: Device
    /// Every HRV meter of the person, whose measurements the screen shows together.
    public let meters: [Device]
    public private(set) var latest: HRVLatest?
    public private(set) var trend: HRVTrend?
    public private(set) var rows: [HRVRow] = []
    public private(set) var selectedIndex = 0
    public private(set) var days = 30
    public var isRefreshing: Bool { loads.isRunning || writes.isRunning }
    public private(set) var isLoadingOlder = false
    /// False once a load came back short: there is nothing older to page in.
    public private(set) var hasOlder = true
    public private(set) var problem: String?
    public private(set) var lastUpdated: Date?
    /// The inline "add a measurement" prompt (RMSSD in ms), when open.
    public private(set) var prompt: TextField?
    /// The measurement the open prompt corrects (`e`); nil while it adds a new one.
    public private(set) var editing: String?
    /// The measurement the open y/n question would delete, and the question.
    public private(set) var deleting: (id: String, question: String)?

    /// The most measurements loaded: a year and more of daily ones, enough for the 90-day chart with the
    /// 60 days of baseline before it. Not the store's 1,000-row page: rating and formatting a thousand rows
    /// made R take 9 ms on a busy store, against 5 ms for the other screens.
    public static let loadCount = 400
    /// Older measurements are paged in this many at a time.
    public static let pageSize = 100

    public var title: String { "HRV · " + meters.map(\.name).joined(separator: ", ") }

    private let service: any HealthService
    private let clock: Clock
    private let loadCount: Int
    private let pageSize: Int
    private let listLimit: Int
    let loads = LoadSlot(model: "hrv")
    private let writes = WriteSlot(model: "hrv")
    /// Measurements newest first.
    private var messages: [Message] = []
    /// The day sums of the days with a night's sleep, over the days of the loaded measurements: each
    /// measurement is shown beside the night that ended that morning.
    private var nights: [Day: DayTotals] = [:]

    /// `loadCount`, `pageSize` and `listLimit` (the most one refresh asks for) are for tests, which page
    /// through less.
    public init(service: any HealthService, device: Device, clock: Clock, meters: [Device] = [],
                loadCount: Int = HRVModel.loadCount, pageSize: Int = HRVModel.pageSize,
                listLimit: Int = ScreenLimits.maxListed) {
        self.service = service
        self.listLimit = listLimit
        self.device = device
        self.meters = meters.contains { $0.id == device.id } ? meters : [device] + meters
        self.clock = clock
        self.loadCount = loadCount
        self.pageSize = pageSize
    }

    /// Loads the newest measurements: `loadCount`, or as many as are loaded already when older pages were.
    public func refresh() -> Command {
        let service = service, ids = meters.map(\.id), calendar = clock.calendar, today = clock.today
        let list = RefreshedList(loaded: messages.count, wanted: loadCount, limit: listLimit)
        let count = list.asked
        let ask = HRVScreenData.Ask(latestCount: count, meters: ids, through: today, calendar: calendar)
        return Command(loads.load("latest \(count) of \(ids.joined(separator: ","))") {
            try await service.hrvScreen(ask)
        } apply: { [weak self] result in
            guard let self else { return .none }
            isLoadingOlder = false
            switch result {
            case .success(let screen):
                nights = screen.nights
                // Counted before the filter: a full answer may hold more, whatever it shows.
                let (listed, more) = list.merge(fresh: screen.measurements, loaded: messages, hadOlder: hasOlder)
                messages = listed.filter(Self.isMeasurement)
                hasOlder = more
                problem = nil
                lastUpdated = clock.now()
                rebuild()
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    /// Loads the next `pageSize` older measurements through the paged range query, then selects `select`
    /// (clamped to what is loaded) when given.
    public func loadOlder(thenSelect select: Int? = nil, then next: (@MainActor () -> Command)? = nil) -> Command {
        guard hasOlder, !isLoadingOlder,
              let page = OlderPage(before: messages, devices: meters, pageSize: pageSize, field: nil) else { return .none }
        isLoadingOlder = true
        let service = service, calendar = clock.calendar
        let before = Day(messages.last!.date, in: calendar).adding(days: -1)
        return Command(loads.load("older than \(messages.last!.ts)") {
            var pages: [MessagePage] = []
            for query in page.queries { pages.append(try await service.messages(query)) }
            let nights = try await service.nights(beside: pages.flatMap(\.messages), through: before, calendar: calendar)
            return (pages, nights)
        } apply: { [weak self] result in
            guard let self else { return .none }
            isLoadingOlder = false
            switch result {
            case .success(let (pages, nights)):
                self.nights.merge(nights) { _, new in new }
                let (older, more) = page.merge(pages, loaded: messages)
                hasOlder = more
                messages.append(contentsOf: older.filter(Self.isMeasurement))
                problem = nil
                rebuild()
                if let select { selectedIndex = min(max(select, 0), max(rows.count - 1, 0)) }
                if let next { return next() }
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    /// Moves the selection; moving past the last row loads older measurements and moves on into them.
    public func moveSelection(by delta: Int) -> Command { movingSelection(by: delta) }

    public func moveToTop() { selectedIndex = 0 }

    /// `End`: the oldest loaded measurement; pressed there, the next page of older ones and the oldest of those.
    public func moveToBottom() -> Command {
        let last = max(rows.count - 1, 0)
        guard selectedIndex == last, hasOlder, !isLoadingOlder, !rows.isEmpty else {
            selectedIndex = last
            return .none
        }
        return loadOlder(thenSelect: Int.max)
    }

    /// `]` and `[`: the trend over 90 or 30 days.
    public func showDays(_ newDays: Int) {
        guard newDays != days else { return }
        days = newDays
        rebuild()
    }

    public func openPrompt() {
        editing = nil
        deleting = nil
        prompt = TextField(label: "RMSSD in ms", limit: 40, hint: PromptReading.timeHint)
        problem = nil
    }

    /// `e`: opens the prompt on the selected measurement's RMSSD. Only one typed by hand can be corrected:
    /// Welltory's and the beats' figures are computed, so changing one would make it a figure nobody measured.
    public func openEditPrompt() {
        guard rows.indices.contains(selectedIndex), prompt == nil else { return }
        let row = rows[selectedIndex]
        guard case .text(HRVSource.manual.rawValue)? = messages.first(where: { $0.mid == row.id })?.data[Field.source] else {
            problem = "only a measurement added by hand can be corrected; this one is \(row.source)'s: delete it with d if it is wrong"
            return
        }
        deleting = nil
        editing = row.id
        prompt = TextField(label: "RMSSD in ms of \(row.date)", text: row.rmssd, limit: 40, hint: "a new time may follow: 7:10")
        problem = nil
    }

    /// Asks whether to delete the selected measurement (the screen shows the question, y/n answers it).
    public func askToDelete() {
        guard rows.indices.contains(selectedIndex), prompt == nil else { return }
        let row = rows[selectedIndex]
        let figure = row.refusal == nil ? "RMSSD \(row.rmssd) ms" : "Apple SDNN \(row.appleSDNN) ms"
        deleting = (row.id, "Delete the measurement of \(row.date) (\(figure))? y/n")
        problem = nil
    }

    public func cancelDelete() { deleting = nil }

    /// Deletes the measurement the question named; the table, the chart and the baseline lose it.
    public func confirmDelete() -> Command {
        guard let id = deleting?.id else { return .none }
        deleting = nil
        return writes.delete(reading: id, from: service, deleted: { [weak self] in
            guard let self else { return .none }
            messages.removeAll { $0.mid == id }
            rebuild()
            return refresh()
        }, failed: { [weak self] in self?.problem = $0 })
    }

    public func cancelPrompt() {
        prompt = nil
        editing = nil
    }
    public func promptType(_ character: Character) { prompt?.insert(character) }
    public func promptDeleteBackward() { promptEdit(.deleteBackward) }
    public func promptEdit(_ edit: TextEdit) { prompt?.apply(edit) }

    /// Posts the typed RMSSD as a measurement by hand; the service's rule refuses what `hmon add hrv` refuses.
    public func submitPrompt() -> Command {
        guard let entry = PromptReading.typedEntry(prompt, quantity: "an RMSSD in ms", example: "48.5", day: clock.today,
                                                   clock: clock, problem: &problem)
        else { return .none }
        let value = entry.value
        if let editing { return saveCorrection(of: editing, rmssdMs: value, at: entry.time) }
        let message = NewMessage(sdid: device.id, ts: (entry.time ?? clock.now()).millisecondsSince1970,
                                 data: [Field.rmssd: .number(value), Field.source: .text(HRVSource.manual.rawValue)])
        return writes.post(message, to: service, saved: { [weak self] in
            self?.prompt = nil
            return self?.refresh() ?? .none
        }, failed: { [weak self] in self?.problem = $0 })
    }

    /// Saves the corrected RMSSD, checked by the service as a new one; the prompt stays open when refused.
    private func saveCorrection(of id: String, rmssdMs: Double, at time: Date?) -> Command {
        writes.edit(reading: id, ReadingChange(ts: time?.millisecondsSince1970, data: [Field.rmssd: .number(rmssdMs)]),
                    in: service, saved: { [weak self] in
            guard let self else { return .none }
            prompt = nil
            editing = nil
            return refresh()
        }, failed: { [weak self] in self?.problem = $0 })
    }

    /// "7 h 30" asleep in the night that ended on `date`'s day; nil without one.
    private func sleepText(on date: Date) -> String? {
        nights[Day(date, in: clock.calendar)]?[.sleep].mean.map(Formats.hoursMinutes)
    }

    // MARK: Display state

    /// An HRV figure to show: an RMSSD, or Apple's SDNN of a record whose beats were refused.
    static func isMeasurement(_ message: Message) -> Bool {
        message.data[Field.rmssd]?.number != nil || message.data[Field.appleSDNN]?.number != nil
    }

    /// The measurements with an RMSSD: the baseline's and the trend's history. A refused beat list has none,
    /// so it never enters either.
    private var history: [(date: Date, rmssdMs: Double)] {
        messages.compactMap { m in m.data[Field.rmssd]?.number.map { (date: m.date, rmssdMs: $0) } }
    }

    private func rebuild() {
        let formats = Formats(calendar: clock.calendar)
        let history = history
        // Every RMSSD's colour in one pass (a table of a thousand measurements rated one by one took 12 ms).
        // Welltory's stress colour is about stress, not RMSSD, so RMSSD is always rated against the baseline;
        // the three scores keep Welltory's own colours.
        var verdicts = HRVBaseline.verdicts(of: history.map { ($0.rmssdMs, $0.date) }, history: history).makeIterator()
        let ratings: [HRVBaseline.Verdict?] = messages.map { $0.data[Field.rmssd]?.number == nil ? nil : verdicts.next() }
        rows = zip(messages, ratings).map { message, rating in
            let data = message.data
            let color: HRVColor
            if case .rated(let c, _)? = rating { color = c } else { color = .unknown }
            let refusal = Self.refusal(data)
            return HRVRow(id: message.mid, date: formats.tableDateTime(message.date),
                          rmssd: data[Field.rmssd]?.number.map(Formats.oneDecimal) ?? "—",
                          sdnn: data[Field.sdnn]?.number.map(Formats.oneDecimal) ?? "—",
                          appleSDNN: data[Field.appleSDNN]?.number.map(Formats.oneDecimal) ?? "—",
                          stress: data[Field.stress]?.number.map { Formats.whole($0 * 100) + " %" } ?? "—",
                          heartRate: data[Field.heartRate]?.number.map(Formats.whole) ?? "—",
                          sleep: sleepText(on: message.date) ?? "—", color: color, word: refusal != nil ? "refused" : color == .unknown ? "—" : color.word,
                          source: Self.sourceName(data[Field.source]?.textValue), refusal: refusal)
        }
        selectedIndex = min(selectedIndex, max(rows.count - 1, 0))
        latest = messages.first.map { makeLatest($0, rating: ratings[0], formats: formats) }
        trend = makeTrend(history: history, formats: formats)
    }

    /// "beats refused: no variability", when the measurement's beat list was refused.
    static func refusal(_ data: [String: FieldValue]) -> String? {
        data[Field.beatsRefused]?.textValue.map { "beats refused: " + $0 }
    }

    private func makeLatest(_ message: Message, rating: HRVBaseline.Verdict?, formats: Formats) -> HRVLatest {
        let data = message.data
        let scored = messages.first { $0.data[Field.stress]?.number != nil || $0.data[Field.energy]?.number != nil }
        let scores = scored?.data ?? [:]
        let kinds: [(field: String, colorField: String, label: String)] = [
            (Field.stress, Field.stressColor, "Stress"), (Field.energy, Field.energyColor, "Energy"),
            (Field.productivity, Field.productivityColor, "Productivity"),
        ]
        let gauges: [HRVGauge] = kinds.compactMap { kind in
            let (field, colorField, label) = kind
            guard let value = scores[field]?.number else { return nil }
            let color = scores[colorField]?.textValue.flatMap(HRVColor.init(rawValue:)) ?? .unknown
            return HRVGauge(label: label, fraction: min(max(value, 0), 1), value: Formats.whole(value * 100) + " %", color: color)
        }
        var figures: [HRVFigure] = []
        func add(_ field: String, _ label: String, _ unit: String, _ format: (Double) -> String) {
            if let value = data[field]?.number { figures.append(HRVFigure(label: label, value: format(value) + unit)) }
        }
        add(Field.rmssd, "RMSSD", " ms", Formats.oneDecimal)
        // The night before the measurement, beside it: a short night shows in the morning's HRV.
        if let slept = sleepText(on: message.date) { figures.append(HRVFigure(label: "Slept", value: slept)) }
        add(Field.sdnn, "SDNN", " ms", Formats.oneDecimal)
        add(Field.appleSDNN, "Apple SDNN", " ms", Formats.oneDecimal)
        add(Field.totalPower, "Power", " ms²", Formats.whole)
        add(Field.heartRate, "Heart rate", " bpm", Formats.whole)
        add(Field.stressIndex, "Stress index", "", Formats.whole)
        let color: HRVColor, note: String
        switch rating {
        case nil:
            color = .unknown
            note = (Self.refusal(data) ?? "no RMSSD") + "; Apple's SDNN kept, left out of your baseline"
        case .rated(let c, _)?:
            color = c
            let place = c == .green ? "above" : c == .red ? "below" : "within"
            note = "RMSSD \(place) your normal range (HRV4Training baseline, 60 days)"
        case .building(let have, let need)?:
            color = .unknown
            // Counted with the measurement shown, as a person counts theirs: the first is "1 of 14". The range
            // is of the measurements before one, so the one that completes it is rated from the next on.
            note = have + 1 < need ? "building your baseline (\(have + 1) of \(need))"
                : "building your baseline (\(need) of \(need): the next is rated)"
        }
        let source = Self.sourceName(data[Field.source]?.textValue)
        let scoresFrom = scored.flatMap { $0.mid == message.mid ? nil : "scores from Welltory, \(formats.dateTime($0.date))" }
        return HRVLatest(heading: "\(formats.dateTime(message.date)) · \(source)", gauges: gauges, scoresFrom: scoresFrom,
                         figures: figures, rmssdColor: color, baselineNote: note,
                         shareLink: scores[Field.shareToken]?.textValue.map { WelltoryLinks.share(token: $0) })
    }

    private func makeTrend(history: [(date: Date, rmssdMs: Double)], formats: Formats) -> HRVTrend? {
        let calendar = clock.calendar
        let today = Day(clock.now(), in: calendar)
        let first = today.adding(days: -(days - 1))
        var byDay: [Day: [Double]] = [:]
        for (date, rmssd) in history {
            let day = Day(date, in: calendar)
            if day >= first && day <= today { byDay[day, default: []].append(rmssd) }
        }
        guard !byDay.isEmpty else { return nil }
        let values: [Double?] = (0..<days).map { offset in
            byDay[first.adding(days: offset)].map { $0.reduce(0, +) / Double($0.count) }
        }
        let band = HRVBaseline.band(before: clock.now(), history: history)
        let present = values.compactMap { $0 } + [band?.lowMs, band?.highMs].compactMap { $0 }
        let scale = (present.min() ?? 0)...max(present.max() ?? 1, (present.min() ?? 0) + 1)
        return HRVTrend(values: values, period: "\(days) days, \(formats.shortDay(first)) – \(formats.shortDay(today))",
                        band: band.map { "normal \(Formats.oneDecimal($0.lowMs))–\(Formats.oneDecimal($0.highMs)) ms" } ?? "no baseline yet",
                        bandLowMs: band?.lowMs, bandHighMs: band?.highMs,
                        axisHigh: Formats.oneDecimal(present.max() ?? 0), axisLow: Formats.oneDecimal(present.min() ?? 0),
                        scale: scale, xTicks: WeightChartBuilder.dayTicks(from: first, to: today, formats: formats))
    }

    /// A reading that names no source is a watch's SDNN, from before sources were kept.
    static func sourceName(_ source: String?) -> String {
        (source.flatMap(HRVSource.init(rawValue:)) ?? .watch).label
    }
}

extension HRVModel: PagedReadingList {
    var rowCount: Int { rows.count }
    var selection: Int {
        get { selectedIndex }
        set { selectedIndex = newValue }
    }
    func loadOlderPage(thenSelect select: Int) -> Command { loadOlder(thenSelect: select) }
    func loadOlderPage(then next: @escaping @MainActor () -> Command) -> Command { loadOlder(then: next) }
    func rowText(_ index: Int) -> String {
        let row = rows[index]
        return [row.date, row.rmssd, row.sdnn, row.appleSDNN, row.stress, row.heartRate, row.sleep, row.word, row.source,
                row.refusal ?? ""]
            .joined(separator: "  ")
    }
    func rowDate(_ index: Int) -> Date { messages[index].date }
    var calendar: Calendar { clock.calendar }
    func say(_ problem: String) { self.problem = problem }
}
