import Foundation
import Testing
@testable import HealthModel

/// The one check a beat list passes before hmon computes HRV from it (issue 28, item 2): enough beats,
/// few enough artefacts, and some variability. Each figure below is worked by hand in its comment.
@Suite struct BeatListQualityTests {
    /// `count` intervals of 800 and 900 ms in turn: every successive difference is ±100 ms, so RMSSD 100 ms.
    static func alternating(_ count: Int) -> [Double] { (0..<count).map { $0.isMultiple(of: 2) ? 800 : 900 } }

    func refusal(_ rr: [Double]) -> BeatListQuality.Refusal? {
        if case .failure(let refusal) = BeatListQuality.check(rrMs: rr) { return refusal }
        return nil
    }

    @Test func aFlatListIsRefusedAsNoVariability() {
        // 40 intervals of 1000 ms: every successive difference is 0, so RMSSD = 0 and SDNN = 0.
        #expect(refusal([Double](repeating: 1000, count: 40)) == .noVariability(rmssdMs: 0))
        #expect(refusal([Double](repeating: 1000, count: 40))?.reason == "no variability")
    }

    @Test func aListThatVariesByLessThanAMillisecondIsRefused() {
        // 1000 and 1000.5 ms in turn: every difference is ±0.5 ms, so RMSSD = 0.5 ms, under the 1 ms floor.
        let rr = (0..<40).map { $0.isMultiple(of: 2) ? 1000 : 1000.5 }
        guard case .noVariability(let rmssd)? = refusal(rr) else {
            Issue.record("expected no variability, got \(String(describing: refusal(rr)))")
            return
        }
        #expect(abs(rmssd - 0.5) < 1e-9)
    }

    @Test func oneWatchTickOfVariationIsEnough() throws {
        // 40 intervals of 1000 ms but one of 1010 ms (one 10 ms tick of an Apple Watch's beat times): the
        // differences are +10 and −10 ms and 37 zeros, so RMSSD = √(200 / 39) = 2.2646 ms, over the floor.
        var rr = [Double](repeating: 1000, count: 40)
        rr[20] = 1010
        let checked = try BeatListQuality.check(rrMs: rr).get()
        #expect(abs(checked.timeDomain.rmssdMs - (200.0 / 39).squareRoot()) < 1e-9)
    }

    @Test func thirtyIntervalsAreEnoughAndTwentyNineAreNot() throws {
        // 30 intervals are 31 beats: the shortest list (about 30 s) whose RMSSD hmon stands behind.
        #expect(refusal(Self.alternating(29)) == .tooFewBeats(intervals: 29))
        let checked = try BeatListQuality.check(rrMs: Self.alternating(30)).get()
        #expect(abs(checked.timeDomain.rmssdMs - 100) < 1e-9)
    }

    @Test func implausibleIntervalsCountAsArtefactsUpToOneInFive() throws {
        // 40 intervals; those at 1, 5, 9, … are 2500 ms, outside 300–2000 ms, and replaced. 8 of 40 is one in
        // five and passes; 9 of 40 is refused.
        func withLong(_ count: Int) -> [Double] {
            var rr = Self.alternating(40)
            for i in 0..<count { rr[1 + 4 * i] = 2500 }
            return rr
        }
        let eight = try BeatListQuality.check(rrMs: withLong(8)).get()
        #expect(eight.intervals.removed == 8)
        #expect(refusal(withLong(9)) == .tooManyArtefacts(replaced: 9, of: 40))
    }

    @Test func hmonAddHRVsAnalysisRefusesWhatTheCheckRefusesWithItsMessage() {
        let flat = [Double](repeating: 950, count: 60)
        #expect(throws: HealthError.invalidValue(BeatListQuality.Refusal.noVariability(rmssdMs: 0).message)) {
            try HRVAnalysis(rrMs: flat)
        }
        #expect(BeatListQuality.Refusal.noVariability(rmssdMs: 0).message.contains("the intervals do not vary (RMSSD 0.0 ms, under 1 ms)"))
    }
}
