import Testing
@testable import Terminal

@Suite struct LineChartTests {
    @Test func eachDotIsItsBitInTheBrailleBlock() {
        var dots = BrailleDots(columns: 2, rows: 1)
        dots.set(x: 0, y: 0, layer: 0)     // dot 1: U+2801
        dots.set(x: 3, y: 3, layer: 0)     // second cell, dot 8: U+2880
        #expect(dots.character(column: 0, row: 0) == "⠁")
        #expect(dots.character(column: 1, row: 0) == "⢀")
        for y in 0..<4 { for x in 0..<2 { dots.set(x: x, y: y, layer: 0) } }
        #expect(dots.character(column: 0, row: 0) == "⣿")
    }

    @Test func aLineHasNoHoles() {
        var dots = BrailleDots(columns: 2, rows: 1)
        dots.line(from: (0, 0), to: (3, 3), layer: 0)   // the diagonal: dots 1, 5 then 3, 8
        #expect(dots.character(column: 0, row: 0) == "⠑")
        #expect(dots.character(column: 1, row: 0) == "⢄")
    }

    @Test func ticksLabelsTheLineAndAPointStandApartByStyle() {
        let canvas = GridCanvas(width: 12, height: 5)
        var chart = LineChart(xRange: 0...10, yRange: 70...72,
                              points: [.init(x: 5, y: 72)],
                              line: [.init(x: 0, y: 71), .init(x: 10, y: 71)], level: nil,
                              yTicks: [.init(value: 70, label: "70"), .init(value: 72, label: "72")],
                              xTicks: [.init(value: 0, label: "Nov"), .init(value: 10, label: "10")])
        chart.pointStyle = Style(.accent)
        chart.draw(on: canvas, in: Rect(x: 0, y: 0, width: 12, height: 5))
        // Plot 9 × 4 cells = 18 × 16 dots. 71 is dot row 15 − round(7.5) = 7: the bottom dots of cell row 1.
        // The point (5, 72): dot column round(8.5) = 9, the right column of cell 4; dot row 0.
        #expect(canvas.renderPlain().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
            "72┤    ⠈",
            "  │⣀⣀⣀⣀⣀⣀⣀⣀⣀",
            "  │",
            "70┤",
            "  └Nov    10",
        ])
        #expect(canvas.cell(at: Point(x: 7, y: 0))?.style == Style(.accent))
        #expect(canvas.cell(at: Point(x: 3, y: 1))?.style == Style(.graph))
    }

    @Test func theLevelIsDashed() {
        let canvas = GridCanvas(width: 9, height: 2)
        let chart = LineChart(xRange: 0...1, yRange: 0...1, points: [], line: [], level: 1,
                              yTicks: [.init(value: 1, label: "1")], xTicks: [])
        chart.draw(on: canvas, in: Rect(x: 0, y: 0, width: 9, height: 2))
        // 7 cells = 14 dot columns at dot row 0, on in threes: 0–2, 6–8, 12–13; cells 2 and 5 stay blank.
        #expect(canvas.line(0) == "1┤⠉⠁ ⠉⠁ ⠉")
    }

    @Test func twoTicksInOneRowLeaveTheOneNearestItsMiddle() {
        // A 2-row plot of 70…72 has 8 dot rows: 72 is dot 0 (row 0's edge), 71.2 is dot 7 − round(4.2) = 3
        // (row 0's other edge), 70.8 is dot 4 (row 1's edge), 71.5 is dot 7 − round(5.25) = 2 (row 0, next to its
        // middle). Row 0 gets 71.5, the tick nearest its middle, whatever order the ticks come in.
        for ticks in [[72.0, 71.5, 71.2], [71.2, 71.5, 72.0]] {
            let canvas = GridCanvas(width: 8, height: 3)
            let chart = LineChart(xRange: 0...1, yRange: 70...72, points: [], line: [], level: nil,
                                  yTicks: ticks.map { .init(value: $0, label: String($0)) }, xTicks: [])
            chart.draw(on: canvas, in: Rect(x: 0, y: 0, width: 8, height: 3))
            #expect(canvas.line(0) == "71.5┤", "ticks in the order \(ticks)")
        }
    }
}
