import Foundation
import HealthCore
import HealthModel

/// One night as the Sleep screen's list shows it, every figure already written.
public struct SleepRow: Sendable, Equatable {
    /// "Thu 11 Jan".
    public var date: String
    /// "22:45", or "—" for a night kept before hmon kept its window.
    public var bed: String
    public var wake: String
    /// "7 h 20".
    public var asleep: String
    public var inBed: String
    /// "92 %".
    public var efficiency: String
    /// "D 1:00 R 1:00 C 5:20 W 0:10", or "—" for a night without stages.
    public var stages: String
    /// "Apple Watch", and "+ nap 0:40" when the day had one.
    public var source: String
}

/// The selected night's stages against the clock, for the hypnogram.
public struct SleepHypnogramLines: Sendable, Equatable {
    /// "Thu 11 Jan 22:45–06:45 · Apple Watch".
    public var title: String
    /// One stage a minute from `startLabel` to `endLabel`; nil where nothing was recorded.
    public var minutes: [SleepStage?]
    public var startLabel: String
    public var endLabel: String
    /// "latency 15 min · awake after sleep onset 10 min · midpoint 02:45".
    public var measures: String
}

/// The Sleep screen's state: the nights of the last 90 days newest first, the selected one's hypnogram, the
/// span's regularity, debt and consistency, and time asleep by night over 30 or 90 days against the need.
@MainActor
public final class SleepModel {
    public let title = "Sleep"
    public private(set) var rows: [SleepRow] = []
    public private(set) var selectedIndex = 0
    /// The selected night's stages; nil for a night without them (then `sessionNote` says what it has).
    public private(set) var hypnogram: SleepHypnogramLines?
    /// "Thu 11 Jan 23:30–07:00 · Oura: no stages against the clock; measured from the session".
    public private(set) var sessionNote: String?
    /// "SRI 7 d 91.7 · 30 d 91.7".
    public private(set) var regularity = ""
    /// "debt 2 h 47 (need 8 h 00) · bed ± 35 min · wake ± 0 min".
    public private(set) var debt = ""
    /// Hours asleep by night, oldest first, over `spanDays`; nil for a day without a night.
    public private(set) var chart: [Double?] = []
    public private(set) var needHours = SleepDebt.defaultNeedMinutes / 60
    /// "Asleep by night · 30 days · need 8 h".
    public private(set) var chartTitle = ""
    public private(set) var spanDays = 30
    public var isRefreshing: Bool { loads.isRunning }
    public private(set) var problem: String?
    public private(set) var notice: String?
    public private(set) var lastUpdated: Date?
    public private(set) var hasLoaded = false

    /// The days of nights the screen loads: the longest chart.
    public static let loadedDays = 90

    private let service: any HealthService
    private let clock: Clock
    let loads = LoadSlot(model: "sleep")
    private var report: SleepReport?

    public init(service: any HealthService, clock: Clock) {
        self.service = service
        self.clock = clock
    }

    public func refresh() -> Command {
        let service = service, calendar = clock.calendar, today = clock.today
        let ask = SleepReportAsk(through: today, days: Self.loadedDays, calendar: calendar)
        return Command([loads.load("nights to \(today)") {
            try await service.sleepReport(ask)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let report):
                self.report = report
                problem = nil
                lastUpdated = clock.now()
                hasLoaded = true
                rebuild()
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        }])
    }

    /// ←/→ and ↑/↓: to an older (positive) or newer night.
    public func moveSelection(by delta: Int) {
        notice = nil
        guard !rows.isEmpty else { return }
        let move = SelectionMove(from: selectedIndex, by: delta, count: rows.count)
        switch move.stoppedAt {
        case .newest: notice = "this is the newest night"
        case .oldest: notice = "this is the oldest night of the last \(Self.loadedDays) days"
        case nil: break
        }
        selectedIndex = move.index
        rebuildSelection()
    }

    public func moveToTop() { moveSelection(by: -rows.count) }
    public func moveToBottom() { moveSelection(by: rows.count) }

    /// `[` and `]`: the chart over 90 or 30 days.
    public func showDays(_ days: Int) {
        spanDays = days
        rebuildChart()
    }

    /// `t` (a date: the newest night on or before it) and `/` (a text in a night's row, after the selection).
    public func seek(_ seek: TableSeek) -> Command {
        notice = nil
        guard let report else { return .none }
        switch seek {
        case .day(let day):
            guard let index = report.nights.firstIndex(where: { $0.day <= day }) else {
                notice = "no night on or before \(day) in the last \(Self.loadedDays) days"
                return .none
            }
            selectedIndex = index
        case .text(let text):
            let wanted = text.trimmingCharacters(in: .whitespaces)
            guard !wanted.isEmpty, !rows.isEmpty else { return .none }
            let order = Array(selectedIndex + 1..<rows.count) + Array(0...selectedIndex)
            guard let index = order.first(where: { Self.text(of: rows[$0]).localizedCaseInsensitiveContains(wanted) }) else {
                notice = "no night shows \"\(wanted)\""
                return .none
            }
            selectedIndex = index
        }
        rebuildSelection()
        return .none
    }

    private static func text(of row: SleepRow) -> String {
        [row.date, row.bed, row.wake, row.asleep, row.inBed, row.efficiency, row.stages, row.source].joined(separator: " ")
    }

    private func rebuild() {
        guard let report else { return }
        let calendar = clock.calendar
        rows = report.nights.map { night in
            SleepRow(date: Self.date(night.day, calendar), bed: night.bedMs.map { Self.clock($0, calendar) } ?? "—",
                     wake: Self.clock(night.wakeMs, calendar), asleep: night.asleep.map(Self.duration) ?? "—",
                     inBed: night.inBed.map(Self.duration) ?? "—",
                     efficiency: night.efficiency.map { "\(Int(($0 * 100).rounded())) %" } ?? "—",
                     stages: Self.stages(night), source: night.source + (night.naps.isEmpty ? "" : " + nap " + Self.short(night.napMinutes)))
        }
        selectedIndex = min(selectedIndex, max(0, rows.count - 1))
        needHours = report.needMinutes / 60
        regularity = "SRI 7 d \(Self.index(report.regularity7)) · 30 d \(Self.index(report.regularity30))"
        debt = "debt \(Self.duration(report.debtMinutes)) (need \(Self.duration(report.needMinutes)))"
            + " · bed ± \(Self.spread(report.consistency.bedMinutes)) · wake ± \(Self.spread(report.consistency.wakeMinutes))"
        rebuildSelection()
        rebuildChart()
    }

    private func rebuildSelection() {
        hypnogram = nil
        sessionNote = nil
        guard let night = report?.nights[safe: selectedIndex] else { return }
        let calendar = clock.calendar
        let window = (night.bedMs.map { Self.clock($0, calendar) } ?? "—") + "–" + Self.clock(night.wakeMs, calendar)
        let heading = "\(Self.date(night.day, calendar)) \(window) · \(night.source)"
        guard let stages = night.hypnogram, !stages.minutes.isEmpty else {
            sessionNote = heading + ": no stages against the clock; measured from the session"
            return
        }
        var measures: [String] = []
        if let latency = night.latency { measures.append("latency \(Int(latency.rounded())) min") }
        if let waso = night.wakeAfterSleepOnset { measures.append("awake after sleep onset \(Int(waso.rounded())) min") }
        if let midpoint = night.midpointMs { measures.append("midpoint \(Self.clock(midpoint, calendar))") }
        hypnogram = SleepHypnogramLines(title: heading, minutes: stages.minutes, startLabel: Self.clock(stages.startMs, calendar),
                                        endLabel: Self.clock(stages.endMs, calendar), measures: measures.joined(separator: " · "))
    }

    private func rebuildChart() {
        guard let report else { return }
        let byDay = Dictionary(report.nights.map { ($0.day, $0.asleep) }, uniquingKeysWith: { first, _ in first })
        chart = (0..<spanDays).map { back in
            byDay[report.through.adding(days: -(spanDays - 1 - back))].flatMap { $0 }.map { $0 / 60 }
        }
        chartTitle = "Asleep by night · \(spanDays) days · need \(Self.duration(report.needMinutes))"
    }

    // MARK: Words

    /// "7 h 20".
    static func duration(_ minutes: Double) -> String {
        let whole = Int(minutes.rounded())
        return "\(whole / 60) h \(whole % 60 < 10 ? "0" : "")\(whole % 60)"
    }

    /// "1:20".
    static func short(_ minutes: Double) -> String {
        let whole = Int(minutes.rounded())
        return "\(whole / 60):\(whole % 60 < 10 ? "0" : "")\(whole % 60)"
    }

    static func index(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "—"
    }

    static func spread(_ minutes: Double?) -> String {
        minutes.map { "\(Int($0.rounded())) min" } ?? "—"
    }

    static func clock(_ ms: Int64, _ calendar: Calendar) -> String {
        let parts = DateText.parts(of: Date(millisecondsSince1970: ms), in: calendar)
        return parts.hh + ":" + parts.mm
    }

    static func date(_ day: Day, _ calendar: Calendar) -> String {
        let parts = DateText.parts(of: day.start(in: calendar), in: calendar)
        return "\(parts.weekdayName) \(parts.dd) \(parts.monthName)"
    }

    /// "D 1:00 R 1:00 C 5:20 W 0:10": deep, REM, core and awake where the night names them.
    static func stages(_ night: SleepNightMeasures) -> String {
        let named = [("D", Field.deepSleepMinutes), ("R", Field.remSleepMinutes), ("C", Field.coreSleepMinutes), ("W", Field.awakeMinutes)]
            .compactMap { letter, field in night.stages[field].map { "\(letter) \(short($0))" } }
        return named.isEmpty ? "—" : named.joined(separator: " ")
    }
}

fileprivate extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
