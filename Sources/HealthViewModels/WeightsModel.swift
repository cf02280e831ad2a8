import Foundation
import HealthCore

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
}

/// The 90-day trend above the table.
public struct WeightTrend: Sendable, Equatable {
    /// Daily values in the displayed unit, oldest first (carried days included), for the sparkline.
    public var values: [Double]
    /// "72.4 kg".
    public var latest: String
    /// "▼ 0.6 kg in 7 days".
    public var weekChange: String
    public var weekDirection: Change
    public var weekIsGood: Bool?
    /// "min 71.2 · max 74.8".
    public var range: String
    /// "Aug 25 – Nov 22".
    public var period: String
    /// The chart's scale: the highest and lowest daily value, "71.5" and "69.0".
    public var axisHigh: String
    public var axisLow: String
}

/// The weights of one device: the latest readings newest first, paging older ones in, and the trend.
@MainActor
public final class WeightsModel {
    public let device: Device
    public private(set) var unit: MassUnit
    public private(set) var rows: [WeightRow] = []
    public private(set) var trend: WeightTrend?
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

    public static let pageSize = 20

    public var title: String { "Weight in \(unit.rawValue)" }
    public var subtitle: String { device.name }
    public var isEmpty: Bool { rows.isEmpty }

    private let service: any HealthService
    private let clock: Clock
    let loads = LoadSlot(model: "weights")
    private let writes = WriteSlot(model: "weights")
    /// Readings loaded so far, newest first, in kg.
    private var messages: [Message] = []
    private var knownIDs: Set<String> = []
    private var newIDs: Set<String> = []
    private var series: WeightSeries?
    private var manifestUnit: MassUnit

    /// - Parameters:
    ///   - manifestUnit: the unit of the manifest's `weight` field ("kg" unless it says "lb").
    ///   - preferred: the profile's mass unit; shown instead of the manifest's when they differ.
    public init(service: any HealthService, device: Device, manifest: Manifest, preferred: MassUnit?, clock: Clock) {
        self.service = service
        self.device = device
        self.clock = clock
        let manifestUnit = MassUnit(rawValue: manifest.field(Field.weight)?.unit ?? "kg") ?? .kg
        self.manifestUnit = manifestUnit
        self.unit = preferred ?? manifestUnit
    }

    // MARK: Loading

    /// Loads the newest readings (as many as are loaded already, at least `rows` and a page) and the trend.
    /// Rows that were not there before are marked new. A failure sets `problem` and keeps the rows.
    public func refresh(rows wanted: Int = WeightsModel.pageSize) -> Command {
        let count = max(Self.pageSize, wanted, messages.count)
        let today = clock.today, calendar = clock.calendar, service = service, device = device.id
        return Command(loads.load("latest \(count) of \(device)") {
            // Both at once: on a local store they run on two of the pool's readers, on a server as two requests.
            async let readings = service.lastMessages(device: device, count: count, field: Field.weight)
            async let trend = service.weightSeries(days: today.adding(days: -89)...today, calendar: calendar)
            return try await (readings, trend)
        } apply: { [weak self] result in
            guard let self else { return .none }
            isLoadingOlder = false
            switch result {
            case .success(let (latest, series)):
                let isFirstLoad = lastUpdated == nil
                newIDs = isFirstLoad ? [] : Set(latest.map(\.mid)).subtracting(knownIDs)
                knownIDs.formUnion(latest.map(\.mid))
                messages = latest
                hasOlder = latest.count >= count
                self.series = series
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
    public func loadOlder(thenSelect select: Int? = nil, filling wanted: Int = 0) -> Command {
        guard hasOlder, let oldest = messages.last else { return .none }
        isLoadingOlder = true
        // Readings that share the oldest instant are asked for again and dropped by id.
        let sameInstant = messages.reversed().prefix { $0.ts == oldest.ts }.count
        let query = MessageQuery(sdid: device.id, startDate: 0, endDate: oldest.ts, order: .desc,
                                 count: Self.pageSize + sameInstant, fieldPresence: Field.weight)
        let service = service
        return Command(loads.load("older than \(oldest.ts)") {
            try await service.messages(query)
        } apply: { [weak self] result in
            guard let self else { return .none }
            isLoadingOlder = false
            switch result {
            case .success(let page):
                let loaded = Set(messages.map(\.mid))
                let older = page.messages.filter { !loaded.contains($0.mid) && $0.data[Field.weight]?.number != nil }
                if page.messages.count < query.count || older.isEmpty { hasOlder = false }
                messages.append(contentsOf: older)
                knownIDs.formUnion(older.map(\.mid))
                problem = nil
                rebuild()
                if let select { selectedIndex = min(max(select, 0), max(rows.count - 1, 0)) }
                if rows.count < wanted && hasOlder { return loadOlder(filling: wanted) }
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    // MARK: Moving the selection

    /// Moves the selection; moving past the last row loads older readings and then moves on into them.
    public func moveSelection(by delta: Int) -> Command {
        guard !rows.isEmpty else { return .none }
        let target = selectedIndex + delta
        selectedIndex = min(max(target, 0), rows.count - 1)
        if target >= rows.count && hasOlder && !isLoadingOlder {
            return loadOlder(thenSelect: target)
        }
        return .none
    }

    public func moveToTop() { selectedIndex = 0 }
    public func moveToBottom() { selectedIndex = max(rows.count - 1, 0) }

    // MARK: Units

    /// `u`: kg ↔ lb.
    public func toggleUnit() {
        unit = unit.toggled
        rebuild()
    }

    // MARK: Adding a reading

    public func openPrompt() {
        prompt = TextField(label: "New weight in \(unit.rawValue)", limit: 12)
        problem = nil
    }

    public func cancelPrompt() { prompt = nil }
    public func promptType(_ character: Character) { prompt?.insert(character) }
    public func promptDeleteBackward() { prompt?.deleteBackward() }

    /// Posts the prompt's weight (in the displayed unit) to this device. The service checks the range
    /// exactly as `hmon add weight` does; its message shows in place and the prompt stays open to fix it.
    public func submitPrompt() -> Command {
        guard let text = prompt?.text.trimmingCharacters(in: .whitespaces) else { return .none }
        let value: Double
        switch PromptReading.number(in: text, quantity: "a weight in \(unit.rawValue)", example: "72.4") {
        case .success(let number): value = number
        case .failure(let reason):
            problem = reason.message
            return .none
        }
        let message = NewMessage(sdid: device.id, ts: clock.now().millisecondsSince1970,
                                 data: [Field.weight: .number(unit.toKg(value))])
        let rowsLoaded = rows.count
        return writes.post(message, to: service, saved: { [weak self] in
            self?.prompt = nil
            return self?.refresh(rows: rowsLoaded) ?? .none
        }, failed: { [weak self] in self?.problem = $0 })
    }

    // MARK: Display state

    private func rebuild() {
        let formats = Formats(calendar: clock.calendar)
        let kgValues = messages.map { $0.data[Field.weight]?.number ?? 0 }
        rows = messages.enumerated().map { i, message in
            let value = unit.fromKg(kgValues[i])
            var row = WeightRow(id: message.mid, date: formats.tableDateTime(message.date),
                                weight: Formats.oneDecimal(value), change: "", direction: .none,
                                isGood: nil, isNew: newIDs.contains(message.mid))
            if i + 1 < messages.count {
                let delta = (value - unit.fromKg(kgValues[i + 1]))
                let rounded = (delta * 10).rounded() / 10
                row.direction = rounded > 0 ? .up : rounded < 0 ? .down : .same
                row.change = Self.arrow(row.direction) + " " + Formats.oneDecimal(abs(rounded))
                row.isGood = row.direction == .same ? nil : row.direction == .down
            }
            return row
        }
        selectedIndex = min(selectedIndex, max(rows.count - 1, 0))
        trend = series.flatMap(makeTrend)
    }

    private func makeTrend(_ series: WeightSeries) -> WeightTrend? {
        guard let last = series.points.last else { return nil }
        let values = series.points.map { unit.fromKg($0.kg) }
        let latest = unit.fromKg(last.kg)
        let weekAgo = last.day.adding(days: -7)
        let before = series.points.last { $0.day <= weekAgo }
        var weekChange = "no reading a week before"
        var direction = Change.none
        if let before {
            let delta = ((latest - unit.fromKg(before.kg)) * 10).rounded() / 10
            direction = delta > 0 ? .up : delta < 0 ? .down : .same
            weekChange = "\(Self.arrow(direction)) \(Formats.oneDecimal(abs(delta))) \(unit.rawValue) in 7 days"
        }
        let formats = Formats(calendar: clock.calendar)
        let period = "\(formats.shortDay(series.days.lowerBound)) – \(formats.shortDay(series.days.upperBound))"
        return WeightTrend(
            values: values,
            latest: "\(Formats.oneDecimal(latest)) \(unit.rawValue)",
            weekChange: weekChange,
            weekDirection: direction,
            weekIsGood: direction == .up ? false : direction == .down ? true : nil,
            range: "min \(Formats.oneDecimal(values.min() ?? latest)) · max \(Formats.oneDecimal(values.max() ?? latest))",
            period: period,
            axisHigh: Formats.oneDecimal(values.max() ?? latest),
            axisLow: Formats.oneDecimal(values.min() ?? latest))
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
