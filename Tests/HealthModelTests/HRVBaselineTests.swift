import Foundation
import Testing
@testable import HealthModel

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

    @Test func ratingATableAtOnceGivesEachMeasurementsOwnVerdict() throws {
        // Two hundred mornings over 250 days (gaps included, some twice a day), RMSSD wandering 25–90 ms:
        // the one-pass sliding window must agree with rating each measurement on its own.
        var generator = SplitMix(seed: 20261122)
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        var history: [(date: Date, rmssdMs: Double)] = []
        var day = 0.0
        for _ in 0..<200 {
            day += [0.5, 1, 1, 1, 2, 3][Int(generator.next() % 6)]
            history.append((start.addingTimeInterval(day * 86_400), 25 + Double(generator.next() % 6_500) / 100))
        }
        let measurements = history.shuffled(using: &generator).map { (rmssdMs: $0.rmssdMs, at: $0.date) }
        let together = HRVBaseline.verdicts(of: measurements, history: history)
        for (measurement, verdict) in zip(measurements, together) {
            let alone = HRVBaseline.verdict(rmssdMs: measurement.rmssdMs, at: measurement.at, history: history)
            switch (verdict, alone) {
            case let (.building(a, _), .building(b, _)):
                #expect(a == b)
            case let (.rated(colorA, bandA), .rated(colorB, bandB)):
                #expect(colorA == colorB)
                #expect(bandA.count == bandB.count)
                #expect(abs(bandA.meanLn - bandB.meanLn) < 1e-9 && abs(bandA.highLn - bandB.highLn) < 1e-9)
            default:
                Issue.record("\(measurement): \(verdict) together, \(alone) alone")
            }
        }
    }
}

/// A small seeded generator, so the test's data is the same on every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
