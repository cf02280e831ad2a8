import Testing
@testable import Terminal

/// Issue 28, item 1: round, evenly spaced ticks, each label on its own row at that row's value. The cases
/// are worked by hand from the rule (Heckbert's nice steps 1, 2, 5 × 10ⁿ; as many intervals as divide the
/// rows between the top and bottom rows; the finest step that covers the data; spare intervals placed to
/// centre the data).
@Suite struct RowAlignedAxisTests {
    /// 71.6–74.8 kg in 5 rows (4 between top and bottom): steps of 0.5 need 7 intervals (71.5…75), which do
    /// not divide 4; steps of 1 need 4 (71…75): a label on every row.
    @Test func theWeighInsOfTheIssueGetWholeKilogramsOnEveryRow() throws {
        let axis = try #require(RowAlignedAxis(low: 71.6, high: 74.8, rows: 5))
        #expect(axis.ticks == [71, 72, 73, 74, 75])
        #expect(axis.step == 1 && axis.decimals == 0)
        // Half a row (0.5 kg) beyond each end tick, so 71 is the bottom row's middle and 75 the top's.
        #expect(axis.range == 70.5...75.5)
    }

    /// 9 rows (8 between): 71.6–74.8 fits in 4 intervals of 1 (a label every other row); steps of 0.5 from
    /// 71.5 need 7, which does not divide 8, so 8 (one spare): finer, so it wins. The spare goes where it
    /// centres the data (middle 73.2): 71.0–75.0 (middle 73.0) rather than 71.5–75.5 (73.5).
    @Test func aTallerChartGetsAFinerStepWhenItsRowsDivideEvenly() throws {
        let axis = try #require(RowAlignedAxis(low: 71.6, high: 74.8, rows: 9))
        #expect(axis.ticks == [71, 71.5, 72, 72.5, 73, 73.5, 74, 74.5, 75])
        #expect(axis.decimals == 1)
    }

    /// A flat line (every value 70) is drawn in the middle of a unit, never on an edge.
    @Test func aFlatLineSitsInsideTheAxis() throws {
        let axis = try #require(RowAlignedAxis(low: 70, high: 70, rows: 5))
        #expect(axis.ticks.first! < 70 && axis.ticks.last! > 70)
        let steps = zip(axis.ticks, axis.ticks.dropFirst()).map { $1 - $0 }
        #expect(Set(steps.map { ($0 * 1e6).rounded() }).count == 1, "evenly spaced: \(axis.ticks)")
    }

    /// A stored weight of 1e300 (planted around the rules) once made the search for a step spin forever:
    /// 1e300 ± 0.5 is 1e300, so the range had no width. Such values give no axis, at once.
    @Test func valuesTooLargeToWidenGiveNoAxisAndEndTheSearch() {
        #expect(RowAlignedAxis(low: 1e300, high: 1e300, rows: 5) == nil)
        #expect(RowAlignedAxis(low: -1e308, high: 1e308, rows: 5) == nil, "a span beyond the largest double")
        #expect(RowAlignedAxis(low: 70.5, high: 1e300, rows: 5) != nil, "wide but finite: steps of 1e299 or so")
    }

    @Test func oneRowOrNoNumbersGiveNoAxis() {
        #expect(RowAlignedAxis(low: 1, high: 2, rows: 1) == nil)
        #expect(RowAlignedAxis(low: .nan, high: 2, rows: 5) == nil)
        #expect(RowAlignedAxis(low: 3, high: 2, rows: 5) == nil)
    }

    /// For every size a dashboard chart gets, every range of readings: the ticks are evenly spaced, cover
    /// the data, and are as many as the rows allow at most.
    @Test(arguments: [3, 4, 5, 6, 8, 10, 12]) func everyAxisIsEvenAndCoversItsData(rows: Int) throws {
        for (low, high) in [(71.6, 74.8), (0.2, 0.9), (38.5, 92.0), (150.0, 151.0), (60.0, 60.3), (1200.0, 2750.0)] {
            let axis = try #require(RowAlignedAxis(low: low, high: high, rows: rows))
            #expect(axis.ticks.first! <= low + 1e-9 && axis.ticks.last! >= high - 1e-9, "\(low)–\(high) in \(rows): \(axis.ticks)")
            #expect(axis.ticks.count <= rows)
            #expect((rows - 1) % (axis.ticks.count - 1) == 0, "labels evenly spread over the rows: \(axis.ticks)")
            let gaps = zip(axis.ticks, axis.ticks.dropFirst()).map { $1 - $0 }
            #expect(gaps.allSatisfy { abs($0 - axis.step) < axis.step * 1e-6 })
        }
    }
}

/// The one-line chart of a screen too short for a braille one shows the whole span, resampled.
@Suite struct SparklineTests {
    @Test func aSeriesIsResampledToTheWidthByMeans() {
        #expect(Sparkline.resampled([70, 71, 72, 73, 74, 75, 76, 77], to: 20) == [70, 71, 72, 73, 74, 75, 76, 77])
        // Four cells of two values each: their means.
        #expect(Sparkline.resampled([70, 71, 72, 73, 74, 75, 76, 77], to: 4) == [70.5, 72.5, 74.5, 76.5])
        // Three cells of eight values: 2, 3 and 3 of them.
        #expect(Sparkline.resampled([1, 2, 3, 4, 5, 6, 7, 8], to: 3) == [1.5, 4, 7])
        #expect(Sparkline.resampled([.nan, 5], to: 3) == [5])
        #expect(Sparkline.resampled([], to: 10).isEmpty)
    }
}

/// A field being typed into scrolls to keep its end (where the typing is) in view (issue 28, item 6:
/// "a field silently drops input past its width").
@Suite struct TypingTailTests {
    @Test func aLongEntryShowsItsEndAfterAnEllipsisAndLeavesACellForTheCursor() {
        #expect(DisplayWidth.typingTail("72.4", in: 10) == "72.4")
        #expect(DisplayWidth.typingTail("oat porridge with honey", in: 10) == "…th honey")
        #expect(DisplayWidth.of(DisplayWidth.typingTail("oat porridge with honey", in: 10)) == 9)
        // Wide characters are never split: 体重 is four cells.
        #expect(DisplayWidth.typingTail("今日の体重", in: 6) == "…体重")
        #expect(DisplayWidth.typingTail("abc", in: 1) == "")
    }
}
