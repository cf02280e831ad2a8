import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// Issue 28, item 4: with a lb/kJ profile no command's summary says kg or kcal, and with kg/kcal none says
/// lb or kJ; every figure is rounded as the dashboard rounds it (`QuantityText`), with separators.
@Suite struct OneUnitEverywhereCommandLineTests {
    static let summaries: [[String]] = [["trend"], ["profile", "show"], ["reading", "list", "--limit", "60"], ["insights"],
                                        ["hrv", "list"]]

    /// The unit words of the other profile, as whole words (so "kg" inside "background" does not count).
    static func strayUnits(in text: String, foreign: [String]) -> [String] {
        let words = Set(text.split(whereSeparator: { !$0.isLetter }).map(String.init))
        return foreign.filter(words.contains)
    }

    @Test(arguments: [(["--unit", "lb", "--energy-unit", "kJ"], ["kg", "kcal"]), (["--unit", "kg", "--energy-unit", "kcal"], ["lb", "kJ"])])
    func noOtherUnitAppears(units: [String], foreign: [String]) async throws {
        let home = try CommandLineTests.Home()
        try #require(await home.hmon(["demo"], withDB: false).status == 0)
        try #require(await home.hmon(["profile", "set", "--demo"] + units, withDB: false).status == 0)
        for command in Self.summaries {
            let run = try await home.hmon(command + ["--demo"], withDB: false)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            let stray = Self.strayUnits(in: run.stdout, foreign: foreign)
            #expect(stray.isEmpty, "hmon \(command.joined(separator: " ")) says \(stray) with \(units): \(run.stdout)")
        }
    }

    @Test func figuresAreRoundedAndGroupedAsOnScreen() async throws {
        let home = try CommandLineTests.Home()
        try #require(await home.hmon(["demo"], withDB: false).status == 0)
        try #require(await home.hmon(["profile", "set", "--demo", "--unit", "lb", "--energy-unit", "kJ"], withDB: false).status == 0)
        let trend = try await home.hmon(["trend", "--demo"], withDB: false).stdout
        // A weight always has its one decimal ("153.0 lb", not "153 lb"); energy has its separators.
        #expect(trend.firstMatch(of: /(^|[^\d.,])\d+ lb/) == nil, "a weight without its decimal: \(trend)")
        #expect(trend.contains(/\d,\d{3} kJ\/day/), "\(trend)")
        #expect(!trend.contains("newest weigh-in"), "the day's average is not called the newest weigh-in")
        let insights = try await home.hmon(["insights", "--demo"], withDB: false).stdout
        #expect(!insights.contains(/\b\d{4,} (kJ|steps)\b/), "four digits without a separator: \(insights)")
        let json = try await home.hmon(["insights", "--demo", "--json"], withDB: false).stdout
        #expect(!json.contains(/\d\.\d{7,}/), "no double noise in the JSON: \(json.prefix(400))")
    }

    @Test func oneFormatterPerKindByHand() {
        let metric = QuantityText(massUnit: .kg, energyUnit: .kcal)
        let imperial = QuantityText(massUnit: .lb, energyUnit: .kJ)
        #expect(metric.text(72.4, .mass) == "72.4 kg")
        #expect(imperial.text(72.4, .mass) == "159.6 lb")              // 72.4 / 0.45359237 = 159.61…
        #expect(metric.text(1_386.8, .energy) == "1,387 kcal")
        #expect(imperial.text(1_386.8, .energy) == "5,802 kJ")           // 1386.8 × 4.184 = 5802.4
        #expect(metric.text(-0.449, .massRate, signed: true) == "−0.45 kg/week")
        #expect(imperial.text(0.45, .massRate, signed: true) == "+0.99 lb/week")   // 0.45 / 0.45359237 = 0.992
        #expect(metric.text(2_292, .steps) == "2,292 steps")
        #expect(metric.text(-0.04, .mass, signed: true) == "0.0 kg", "never −0.0")
        #expect(metric.shownValue(73.80000000000001, .mass) == 73.8)
        #expect(metric.number(.nan, .mass) == "—")
    }
}
