import Foundation
import HealthCore
import HealthModel

/// What `hmon trend` shows, read once from the service: the trend report and the body composition beside
/// it. `hmon trend` and `hmon mcp`'s `trend` tool both load it here, so their figures cannot differ.
public struct TrendFigures: Sendable {
    public var report: WeightTrendReport
    public var bodyComposition: [BodyCompositionDay]

    public static func load(_ service: any HealthService, now: Date, calendar: Calendar, lookbackDays: Int) async throws -> TrendFigures {
        let report = try await service.weightTrendReport(now: now, calendar: calendar, lookbackDays: lookbackDays)
        let composition = try await service.bodyCompositionTrend(
            weighIns: report.days.compactMap { day in day.weightKg.map { (day.day, $0) } }, calendar: calendar)
        return TrendFigures(report: report, bodyComposition: composition)
    }

    /// The text's input: the summary, the expenditure and the composition's summary, in the person's units.
    public var input: TrendText.Input {
        TrendText.Input(report, bodyComposition: BodyCompositionSummary(trend: bodyComposition))
    }

    /// `hmon trend --json`'s document.
    public func json() throws -> Data {
        try TrendJSON.data(input, days: report.days, bodyComposition: bodyComposition)
    }

    /// `hmon trend`'s lines.
    public var lines: [String] { TrendText.lines(input) }
}
