import Foundation
import HealthCore
import HealthModel

/// One row of the weekday table: the attribute, its overall median and each weekday's, with how far
/// each weekday sits from the overall (for shading).
public struct AverageRow: Sendable, Equatable {
    public enum Shade: Sendable, Equatable { case above, near, below, none }

    /// "Energy eaten (kcal)".
    public var label: String
    public var overall: String
    /// Monday first; "–" for a weekday without values.
    public var weekdays: [String]
    /// Above or below the overall by a tenth or more.
    public var shades: [Shade]
}

/// One correlation as the list shows it.
public struct CorrelationRow: Sendable, Equatable {
    /// "On days after you eat more, your weight goes up more".
    public var sentence: String
    /// "moderate".
    public var strength: String
    /// "★★★".
    public var stars: String
    /// "284 days".
    public var days: String
    /// "ρ 0.52".
    public var coefficient: String
}

/// Enter on a correlation: its two series over the last 60 days, side by side.
public struct CorrelationDetail: Sendable, Equatable {
    public struct Series: Sendable, Equatable {
        /// "Energy eaten, the day before" / "Weight change".
        public var title: String
        /// One value a day, oldest first; nil where the day has none.
        public var values: [Double?]
        /// "1,820–3,140".
        public var range: String
    }

    public var sentence: String
    /// "moderate · ★★★ · 284 days · ρ 0.52 · q 0.0003".
    public var summary: String
    public var first: Series
    public var second: Series
}

/// The Insights screen's state: findings, the weekday table of medians, and the correlations, with the
/// selected correlation's detail when Enter opened it.
@MainActor
public final class InsightsModel {
    public private(set) var findings: [String] = []
    public private(set) var averages: [AverageRow] = []
    public private(set) var correlations: [CorrelationRow] = []
    /// "as expected: steps and active energy": surviving pairs that measure one thing twice; nil for none.
    public private(set) var expectedNote: String?
    /// "198 pairs tested, 5 % false discovery rate".
    public private(set) var testedNote = ""
    public private(set) var selectedIndex = 0
    public private(set) var detail: CorrelationDetail?
    public var isRefreshing: Bool { loads.isRunning }
    public private(set) var problem: String?
    public private(set) var lastUpdated: Date?
    public private(set) var hasLoaded = false

    /// How many days the detail charts show.
    public static let detailDays = 60

    private let service: any HealthService
    private let clock: Clock
    let loads = LoadSlot(model: "insights")
    private var report: InsightsReport?

    public init(service: any HealthService, clock: Clock) {
        self.service = service
        self.clock = clock
    }

    public func refresh() -> Command {
        let service = service, now = clock.now(), calendar = clock.calendar
        return Command(loads.load("insights \(Day(now, in: calendar))") {
            try await service.insightsReport(now: now, calendar: calendar)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let report):
                self.report = report
                problem = nil
                lastUpdated = clock.now()
                hasLoaded = true
                rebuild(report)
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }

    public func moveSelection(by delta: Int) {
        guard !correlations.isEmpty else { return }
        selectedIndex = min(max(selectedIndex + delta, 0), correlations.count - 1)
        if detail != nil { openDetail() }
    }

    public func moveToTop() { moveSelection(by: -correlations.count) }
    public func moveToBottom() { moveSelection(by: correlations.count) }

    /// Enter: the selected correlation's two series side by side; Enter again (or Esc) closes them.
    public func toggleDetail() {
        if detail != nil { detail = nil } else { openDetail() }
    }

    public func closeDetail() { detail = nil }

    private func openDetail() {
        guard let report, report.correlations.indices.contains(selectedIndex) else { return }
        let c = report.correlations[selectedIndex]
        let end = report.today.adding(days: -1)
        let first = end.adding(days: -(Self.detailDays - 1))
        func series(_ attribute: InsightAttribute, shift: Int, suffix: String) -> CorrelationDetail.Series {
            let all = report.daily.correlated(attribute)
            let base = report.daily.days.lowerBound.ordinal
            let values: [Double?] = (0..<Self.detailDays).map { i in
                let index = first.ordinal + i + shift - base
                guard all.indices.contains(index), !all[index].isNaN else { return nil }
                return all[index]
            }
            let present = values.compactMap { $0 }
            let range = present.isEmpty ? "no values"
                : "\(AverageCells.text(present.min()!, attribute, report.profile))–\(AverageCells.text(present.max()!, attribute, report.profile))"
            let name = attribute.isTrended ? "\(attribute.label) change" : attribute.label
            return .init(title: name + suffix, values: values, range: range)
        }
        let cause = series(c.attribute2, shift: c.offset, suffix: c.offset == 0 ? "" : ", the day before")
        let effect = series(c.attribute, shift: 0, suffix: "")
        detail = CorrelationDetail(
            sentence: c.sentence,
            summary: "\(c.strength) · \(String(repeating: "★", count: c.stars)) · \(c.days) days · ρ \(Formats.signed2(c.value)) · q \(String(format: "%.2g", c.q))",
            first: cause, second: effect)
    }

    private func rebuild(_ report: InsightsReport) {
        findings = report.findings.map(\.text)
        let profile = report.profile
        averages = report.averages.map { a in
            AverageRow(label: AverageCells.label(a.attribute, profile), overall: AverageCells.text(a.overall, a.attribute, profile),
                       weekdays: a.weekdays.map { $0.map { AverageCells.text($0, a.attribute, profile) } ?? "–" },
                       shades: a.weekdays.map { median in
                           guard let median else { return .none }
                           // A tenth of the median day; net energy sits near zero, so a tenth of it means
                           // nothing: it is shaded from 100 kcal either side instead.
                           let scale = a.attribute == .netEnergy ? 1_000 : max(abs(a.overall), 1e-9)
                           if median - a.overall >= 0.1 * scale { return .above }
                           if a.overall - median >= 0.1 * scale { return .below }
                           return .near
                       })
        }
        correlations = report.correlations.map { c in
            CorrelationRow(sentence: c.sentence, strength: c.strength, stars: String(repeating: "★", count: c.stars),
                           days: "\(c.days) days", coefficient: "ρ \(Formats.signed2(c.value))")
        }
        testedNote = "\(report.testedPairs) pairs tested · false discovery rate 5 %"
        // Pairs that measure one thing twice survive too, but are no finding: named apart, not ranked.
        let expected = report.expectedCorrelations.map { "\($0.attribute.label.lowercased()) and \($0.attribute2.label.lowercased())" }
        expectedNote = expected.isEmpty ? nil : "as expected: " + Array(Set(expected)).sorted().joined(separator: ", ")
        selectedIndex = min(selectedIndex, max(correlations.count - 1, 0))
        if detail != nil { openDetail() }
    }
}

extension Formats {
    /// "+0.52", "−0.31".
    static func signed2(_ value: Double) -> String {
        (value < 0 ? "−" : "+") + CNumberText.fixed(abs(value), decimals: 2)
    }
}
