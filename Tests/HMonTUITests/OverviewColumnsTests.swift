@testable import HMonTUI
@testable import HealthViewModels
import Terminal
import Testing

/// The overview's columns make room for what they show: a figure is never cut ("−1,164 kcal today" keeps
/// its "today"), a longer word widens its column while the sparklines keep their 30 days, and on a narrow
/// terminal the words give way before the sparklines shorten.
@MainActor
struct OverviewColumnsTests {
    static func row(_ label: String, _ figure: String, _ detail: String) -> OverviewRow {
        OverviewRow(label: label, figure: figure, detail: detail, values: Array(repeating: 1, count: OverviewModel.days), topic: .weight)
    }

    static let demo = [row("Weight", "69.5 kg", "−0.10 kg/week"), row("Net energy", "−77 kcal today", "+619 kcal in 7 days")]
    static let long = [row("Net energy", "−1,164 kcal today", "+2,619 kcal in 7 days"), row("Sleep", "7 h 55", "deep 58 min REM 1h42")]

    @Test func figuresAndWordsThatFitKeepTheColumnsAsTheyWere() {
        let columns = OverviewView.columns(for: Self.demo, width: 76, days: 30)
        #expect(columns == OverviewView.Columns(figure: 15, detail: 20, withDetail: true, sparkOffset: 46, sparkWidth: 30))
    }

    @Test func aLongFigureOrWordWidensItsColumnAndIsDrawnWhole() {
        let wide = OverviewView.columns(for: Self.long, width: 116, days: 30)
        #expect(wide.figure == DisplayWidth.of("−1,164 kcal today") + 1 && wide.detail == DisplayWidth.of("+2,619 kcal in 7 days") + 1)
        #expect(wide.withDetail && wide.sparkWidth == 30)

        // At 80 columns the figure keeps its width, the words keep theirs only as far as 30 days still fit.
        let at80 = OverviewView.columns(for: Self.long, width: 76, days: 30)
        #expect(at80.figure == wide.figure && at80.detail == 20 && at80.withDetail)
        #expect(at80.sparkOffset + at80.sparkWidth <= 76 && at80.sparkWidth >= 14)

        let canvas = CutWordRecorder(size: Size(width: 80, height: 4))
        for (y, row) in Self.long.enumerated() {
            _ = canvas.text(row.figure, at: Point(x: OverviewView.labelWidth, y: y), style: .text, maxWidth: at80.figure - 1)
        }
        #expect(canvas.grid.line(0).contains("−1,164 kcal today") && canvas.brokenWords.isEmpty, "\(canvas.brokenWords)")
    }

    @Test func onANarrowTerminalTheWordsGoFirst() {
        let columns = OverviewView.columns(for: Self.long, width: 56, days: 30)
        #expect(!columns.withDetail)
        #expect(columns.sparkOffset == OverviewView.labelWidth + columns.figure && columns.sparkWidth == 56 - columns.sparkOffset)
    }
}
