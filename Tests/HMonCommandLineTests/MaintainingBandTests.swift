import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
import Testing

/// "Within … of your goal" is written in the profile's unit, as every other weight `hmon trend` prints.
@Suite struct MaintainingBandTests {
    private func lines(_ mass: MassUnit) -> [String] {
        let d0 = Day(year: 2026, month: 11, day: 1)
        let days = (0..<15).map { TrendDay(day: d0.adding(days: $0), weightKg: $0 == 14 ? 78 : nil, trendKg: 78.6) }
        let summary = TrendSummary(trend: days, heightCm: 180, goalKg: 78.2)
        return TrendText.lines(TrendText.Input(summary: summary, expenditure: .needsMoreData(foodDays: 0, weighInDays: 15),
                                               formulaKcalPerDay: nil, massUnit: mass, energyUnit: .kcal))
    }

    @Test func aPoundsProfileReadsTheBandInPounds() {
        #expect(lines(.lb)[4] == "Goal:        172.4 lb: within 2.2 lb of your goal: maintaining")
    }

    @Test func aKilogramsProfileReadsItInKilograms() {
        #expect(lines(.kg)[4] == "Goal:        78.2 kg: within 1.0 kg of your goal: maintaining")
    }
}
