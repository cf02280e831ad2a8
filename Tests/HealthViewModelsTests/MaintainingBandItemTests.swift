import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The Weights screen's summary says how near the goal counts as maintaining in the unit it shows.
struct MaintainingBandItemTests {
    @Test(arguments: [(MassUnit.lb, "within 2.2 lb of your goal: maintaining"), (.kg, "within 1.0 kg of your goal: maintaining")])
    func theBandIsInTheUnitShown(_ unit: MassUnit, _ expected: String) throws {
        let d0 = Day(year: 2026, month: 11, day: 1)
        let days = (0..<15).map { TrendDay(day: d0.adding(days: $0), weightKg: 78.6, trendKg: 78.6) }
        let summary = try #require(TrendSummary(trend: days, heightCm: 180, goalKg: 78.2))
        let items = TrendSummaryItems.items(summary, unit: unit, energy: .kcal, calendar: Calendar(identifier: .gregorian))
        #expect(items.map(\.text).contains(expected), "\(items.map(\.text))")
        #expect(!items.map(\.text).joined().contains(unit == .lb ? " kg" : " lb"))
    }
}
