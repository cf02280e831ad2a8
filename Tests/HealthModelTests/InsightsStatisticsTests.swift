import Foundation
import Testing
@testable import HealthModel

/// The statistics behind the correlations, against SciPy (`InsightsFixtures.swift`, made by
/// `Tests/ReferenceScripts/make_insights_fixtures.py` with SciPy 1.17.1) and hand-worked cases.
@Suite struct InsightsStatisticsTests {
    /// Agreement asked of every coefficient and p-value: 1e-6 absolute, and for tiny p-values 1e-6 relative.
    static func agrees(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= 1e-6 && (b == 0 || abs(b) > 1e-6 || abs(a - b) / abs(b) <= 1e-6)
    }

    @Test(arguments: InsightsFixtures.cases.indices)
    func spearmanAgreesWithSciPy(_ index: Int) throws {
        let c = InsightsFixtures.cases[index]
        let result = try #require(RankCorrelation.spearman(c.x, c.y))
        #expect(Self.agrees(result.coefficient, c.spearman), "\(c.name): rho \(result.coefficient) vs SciPy \(InsightsFixtures.scipyVersion) \(c.spearman)")
        #expect(Self.agrees(result.p, c.spearmanP), "\(c.name): p \(result.p) vs SciPy \(c.spearmanP)")
        #expect(result.count == c.x.count)
    }

    @Test(arguments: InsightsFixtures.cases.indices)
    func pearsonAgreesWithSciPy(_ index: Int) throws {
        let c = InsightsFixtures.cases[index]
        let result = try #require(RankCorrelation.pearson(c.x, c.y))
        #expect(Self.agrees(result.coefficient, c.pearson), "\(c.name): r \(result.coefficient) vs SciPy \(c.pearson)")
        #expect(Self.agrees(result.p, c.pearsonP), "\(c.name): p \(result.p) vs SciPy \(c.pearsonP)")
    }

    @Test func tiesShareTheirAverageRank() {
        // 10 < 20 = 20 < 30 = 30 = 30: ranks 1, 2.5, 2.5, 5, 5, 5.
        #expect(RankCorrelation.ranks([30, 20, 10, 30, 20, 30]) == [5, 2.5, 1, 5, 2.5, 5])
    }

    @Test func studentTAgreesWithHandWorkedCases() {
        // ν = 1 is the Cauchy distribution: P(|T| ≥ 1) = 1 − 2·atan(1)/π = 0.5 exactly.
        #expect(abs(StudentT.twoSidedP(t: 1, degreesOfFreedom: 1) - 0.5) < 1e-14)
        // ν = 2 has a closed form: P(|T| ≥ t) = 1 − t/√(2 + t²); at t = 2, 1 − 2/√6.
        #expect(abs(StudentT.twoSidedP(t: 2, degreesOfFreedom: 2) - (1 - 2 / 6.0.squareRoot())) < 1e-14)
        // The textbook table: t = 2.042 is the two-sided 5 % point for ν = 30 (to the table's 4 digits).
        #expect(abs(StudentT.twoSidedP(t: 2.042, degreesOfFreedom: 30) - 0.05) < 1e-4)
        #expect(StudentT.twoSidedP(t: 0, degreesOfFreedom: 10) == 1)
    }

    @Test func benjaminiHochbergOnAHandWorkedCase() {
        // Sorted: 0.005, 0.01, 0.03, 0.04, 0.20 (m = 5). p·m/rank: 0.025, 0.025, 0.05, 0.05, 0.2;
        // the running minimum from the top leaves them so. Back in the input's order:
        let q = BenjaminiHochberg.adjusted([0.01, 0.04, 0.03, 0.005, 0.20])
        let expected = [0.025, 0.05, 0.05, 0.025, 0.2]
        for (a, b) in zip(q, expected) { #expect(abs(a - b) < 1e-15) }
        // A later, smaller p·m/rank pulls an earlier one down: 0.02·2/1 = 0.04 > 0.021·2/2 = 0.021.
        let pulled = BenjaminiHochberg.adjusted([0.02, 0.021])
        #expect(abs(pulled[0] - 0.021) < 1e-15 && abs(pulled[1] - 0.021) < 1e-15)
    }

    @Test func benjaminiHochbergAgreesWithSciPy() {
        let q = BenjaminiHochberg.adjusted(InsightsFixtures.pValues)
        #expect(q.count == InsightsFixtures.bhAdjusted.count)
        for (mine, scipy) in zip(q, InsightsFixtures.bhAdjusted) {
            #expect(abs(mine - scipy) < 1e-12, "SciPy \(InsightsFixtures.scipyVersion) false_discovery_control: \(scipy), hmon \(mine)")
        }
    }

    @Test func mediansOfOddAndEvenCounts() {
        #expect(Median.of([]) == nil)
        #expect(Median.of([5, 1, 3]) == 3)
        #expect(Median.of([4, 1, 3, 10]) == 3.5)
    }
}
