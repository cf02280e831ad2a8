import Foundation
import Testing
@testable import HealthCore

/// HRV4Training's baseline: ln RMSSD against the 60-day mean ± 0.5 SD, after 14 measurements.
@Suite struct HRVBaselineTests {
    static let day = 86_400.0
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// Daily RMSSD alternating 45 and 55 ms over the last `days` days.
    static func history(days: Int) -> [(date: Date, rmssdMs: Double)] {
        (1...days).map { (now.addingTimeInterval(-Double($0) * day), $0 % 2 == 0 ? 45.0 : 55.0) }
    }

    @Test func underFourteenMeasurementsTheBaselineIsBuilding() {
        #expect(HRVBaseline.verdict(rmssdMs: 50, at: Self.now, history: Self.history(days: 13)) == .building(have: 13, need: 14))
    }

    @Test func aboveTheBandIsGreenInsideYellowBelowRed() throws {
        let history = Self.history(days: 20)
        let band = try #require(HRVBaseline.band(before: Self.now, history: history))
        // ln 45 = 3.807, ln 55 = 4.007: mean 3.907, SD 0.10294 (numpy, ddof 1), band ± 0.0515.
        #expect(abs(band.meanLn - (log(45.0) + log(55.0)) / 2) < 1e-12)
        #expect(abs(band.highLn - band.meanLn - 0.5 * 0.10294189) < 1e-6)
        let rate = { (ms: Double) in HRVBaseline.verdict(rmssdMs: ms, at: Self.now, history: history) }
        #expect(rate(60) == .rated(.green, band))
        #expect(rate(50) == .rated(.yellow, band))
        #expect(rate(40) == .rated(.red, band))
    }

    @Test func onlyTheSixtyDaysBeforeCount() {
        // 20 measurements, all older than 60 days: nothing to compare with.
        let old = (61...80).map { (date: Self.now.addingTimeInterval(-Double($0) * Self.day), rmssdMs: 50.0) }
        #expect(HRVBaseline.verdict(rmssdMs: 50, at: Self.now, history: old) == .building(have: 0, need: 14))
    }
}
