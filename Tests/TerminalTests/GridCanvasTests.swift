import Testing
@testable import Terminal

@Suite struct GridCanvasTests {
    @Test func textPastTheRightEdgeEndsInAnEllipsis() {
        let canvas = GridCanvas(width: 10, height: 1)
        let written = canvas.text("Weight in kilograms", at: Point(x: 2, y: 0))
        #expect(canvas.renderPlain() == "  Weight …")
        #expect(written == 8)
    }

    @Test func textThatFitsIsWrittenWhole() {
        let canvas = GridCanvas(width: 10, height: 1)
        #expect(canvas.text("72.4 kg", at: Point(x: 0, y: 0)) == 7)
        #expect(canvas.renderPlain() == "72.4 kg")
    }

    @Test func maxWidthCutsBeforeTheEdge() {
        let canvas = GridCanvas(width: 20, height: 1)
        canvas.text("Resting energy", at: Point(x: 0, y: 0), style: .text, maxWidth: 8)
        canvas.text("|", at: Point(x: 8, y: 0))
        #expect(canvas.renderPlain() == "Resting…|")
    }

    @Test func wideCharactersTakeTwoCellsAndAreNeverSplit() {
        let canvas = GridCanvas(width: 7, height: 3)
        canvas.text("体重計", at: Point(x: 0, y: 0))
        canvas.text("体重計です", at: Point(x: 0, y: 1))
        canvas.text("体重計です", at: Point(x: 0, y: 2), style: .text, maxWidth: 6)
        #expect(canvas.line(0) == "体重計")
        #expect(canvas.cell(at: Point(x: 0, y: 0))?.width == 2)
        #expect(canvas.cell(at: Point(x: 1, y: 0))?.width == 0)
        // 10 cells into 7: three wide characters and the ellipsis.
        #expect(canvas.line(1) == "体重計…")
        // Into 6: a third wide character would leave no room for the ellipsis, so two, "…" and a blank.
        #expect(canvas.line(2) == "体重…")
        #expect(canvas.cell(at: Point(x: 5, y: 2)) == Cell(character: " ", style: .text, width: 1))
    }

    @Test func emojiCountAsTwoCellsAndCombiningMarksAsNone() {
        #expect(DisplayWidth.of("🔥") == 2)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("🇫🇮") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("kg") == 2)
        #expect(DisplayWidth.of("한국어") == 6)
        let canvas = GridCanvas(width: 6, height: 1)
        canvas.text("🔥x🔥y", at: Point(x: 0, y: 0))
        #expect(canvas.renderPlain() == "🔥x🔥y")
        canvas.text("🔥🔥🔥🔥", at: Point(x: 0, y: 0))
        #expect(canvas.renderPlain() == "🔥🔥…")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        let canvas = GridCanvas(width: 6, height: 1)
        canvas.text("日本語", at: Point(x: 0, y: 0))
        canvas.text("x", at: Point(x: 1, y: 0))  // right half of 日
        canvas.text("y", at: Point(x: 2, y: 0))  // left half of 本
        #expect(canvas.renderPlain() == " xy 語")
    }

    @Test func aWideCharacterAtTheLastColumnBecomesABlank() {
        let canvas = GridCanvas(width: 3, height: 1)
        canvas.fill(Rect(x: 0, y: 0, width: 3, height: 1), character: ".", style: .dim)
        canvas.text("日", at: Point(x: 2, y: 0), style: .text, maxWidth: 5)
        #expect(canvas.renderPlain() == "..…")
    }

    @Test func boxesHaveCornersEdgesAndATitleInTheTopEdge() {
        let canvas = GridCanvas(width: 16, height: 4)
        canvas.box(Rect(x: 0, y: 0, width: 16, height: 4), title: "Weight")
        #expect(canvas.renderPlain() == """
            ┌─ Weight ─────┐
            │              │
            │              │
            └──────────────┘
            """)
        #expect(canvas.renderStyled() == """
            [border]┌─ [/][title]Weight[/][border] ─────┐[/]
            [border]│[/]              [border]│[/]
            [border]│[/]              [border]│[/]
            [border]└──────────────┘[/]
            """)
    }

    @Test func aLongBoxTitleIsCutBeforeTheCorner() {
        let canvas = GridCanvas(width: 12, height: 3)
        canvas.box(Rect(x: 0, y: 0, width: 12, height: 3), title: "Energy balance")
        #expect(canvas.line(0) == "┌─ Energ… ─┐")
    }

    @Test func linesRunHorizontallyAndVertically() {
        let canvas = GridCanvas(width: 5, height: 3)
        canvas.horizontalLine(at: Point(x: 0, y: 1), width: 5, style: .border)
        canvas.verticalLine(at: Point(x: 2, y: 0), height: 3, style: .border)
        #expect(canvas.renderPlain() == "  │\n──│──\n  │")
    }

    @Test func sparklineScalesFromLowestToHighestAndLeavesGapsForMissingDays() {
        let canvas = GridCanvas(width: 10, height: 1)
        canvas.sparkline([70, 71, nil, 72, 77], at: Point(x: 0, y: 0), width: 10)
        #expect(canvas.renderPlain() == "▁▂ ▃█")
        #expect(canvas.renderStyled() == "[graph]▁▂ ▃█[/]")
    }

    @Test func sparklineShowsOnlyTheLastValuesThatFit() {
        let canvas = GridCanvas(width: 3, height: 1)
        canvas.sparkline([100, 0, 1, 2], at: Point(x: 0, y: 0), width: 3)
        #expect(canvas.renderPlain() == "▁▅█")
    }

    @Test func barFillsItsFractionWithEighthBlocks() {
        let canvas = GridCanvas(width: 10, height: 3)
        canvas.bar(at: Point(x: 0, y: 0), width: 4, fraction: 0.5)
        canvas.bar(at: Point(x: 0, y: 1), width: 4, fraction: 0.3125)  // 10 of 32 eighths
        canvas.bar(at: Point(x: 0, y: 2), width: 4, fraction: 7)
        #expect(canvas.renderPlain() == "██░░\n█▎░░\n████")
        #expect(canvas.renderStyled().split(separator: "\n").first == "[accent]██[/][dim]░░[/]")
    }

    @Test func styleMarksNameRolesAndOptionallyAttributes() {
        let canvas = GridCanvas(width: 20, height: 1)
        canvas.text("net", at: Point(x: 0, y: 0))
        canvas.text("-420 kcal", at: Point(x: 4, y: 0), style: .bad)
        #expect(canvas.renderStyled() == "net [bad]-420 kcal[/]")
        #expect(canvas.renderStyled(attributes: true) == "net [bad+bold]-420 kcal[/]")
        #expect(canvas.cell(at: Point(x: 4, y: 0))?.style == .bad)
    }

    @Test func drawingOutsideTheCanvasIsIgnored() {
        let canvas = GridCanvas(width: 4, height: 2)
        canvas.text("hidden", at: Point(x: 0, y: 5))
        canvas.text("abc", at: Point(x: 9, y: 0))
        canvas.fill(Rect(x: -2, y: -2, width: 4, height: 3), character: "#", style: .text)
        #expect(canvas.renderPlain() == "##\n")
        #expect(canvas.cell(at: Point(x: 4, y: 0)) == nil)
    }

    @Test func centredTextSitsInTheMiddle() {
        let canvas = GridCanvas(width: 11, height: 1)
        canvas.text("abc", centredIn: Rect(x: 0, y: 0, width: 11, height: 1), row: 0)
        #expect(canvas.renderPlain() == "    abc")
    }
}
