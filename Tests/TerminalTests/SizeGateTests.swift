import Testing
import Terminal

@Suite struct SizeGateTests {
    @Test func aSmallTerminalShowsWhatItHasAndWhatItNeeds() {
        let canvas = GridCanvas(width: 52, height: 14)
        canvas.text("half a dashboard", at: Point(x: 0, y: 0))
        let gate = SizeGate()
        #expect(gate.check(canvas) == false)
        let lines = canvas.renderPlain().split(separator: "\n", omittingEmptySubsequences: false)
        // The 42-cell message centred in 52 cells: 5 blanks before it.
        #expect(lines[6] == "     Terminal too small: have 52×14, need 60×16")
        #expect(lines[7].contains("enlarge the window, or press q to quit"))
        #expect(!canvas.renderPlain().contains("half a dashboard"))
        #expect(canvas.renderStyled().contains("[bad]Terminal too small: have 52×14, need 60×16[/]"))
    }

    @Test func aBigEnoughTerminalIsLeftAlone() {
        let canvas = GridCanvas(width: 60, height: 16)
        canvas.text("dashboard", at: Point(x: 0, y: 0))
        #expect(SizeGate().check(canvas))
        #expect(canvas.line(0) == "dashboard")
    }

    @Test func aVeryNarrowTerminalGetsTheMessageOnSeveralLines() {
        let canvas = GridCanvas(width: 24, height: 5)
        SizeGate(minimum: Size(width: 30, height: 10)).drawTooSmall(on: canvas)
        #expect(canvas.renderPlain() == """

               Terminal too small
             have 24×5, need 30×10
                    q quits

            """)
    }
}
