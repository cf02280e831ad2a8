import CNcurses
import Foundation
import TestSupport
import Testing
@testable import Terminal

/// Real ncurses on a pseudo-terminal. ncurses is process-global, so these run one at a time, in one suite.
@Suite(.serialized) @MainActor
struct CursesScreenTests {
    func openScreen(_ pty: PseudoTerminal, term: String = "xterm-256color",
                    environment: [String: String] = [:], theme: Theme = .builtInDefault) throws -> Screen {
        try Screen.start(Screen.Options(terminalType: term, inputFD: pty.terminalFD, outputFD: pty.terminalFD,
                                        theme: theme, environment: environment.merging(["TERM": term]) { a, _ in a }))
    }

    /// The same drawing calls views make: a frame, a titled box, wide text, cut text, a bar and a sparkline.
    func drawScene(on canvas: some Canvas) {
        canvas.clear(.text)
        canvas.box(Rect(x: 0, y: 0, width: 40, height: 12), style: .border, title: "Weight — 体重")
        canvas.text("72.4 kg", at: Point(x: 2, y: 1), style: .header)
        canvas.text("−0.6 kg this week 🔥", at: Point(x: 2, y: 2), style: .good)
        canvas.text("日本語のとても長いテキストは切られます", at: Point(x: 2, y: 3), style: .text, maxWidth: 15)
        canvas.text("over the edge of the box and the screen", at: Point(x: 20, y: 4), style: .bad)
        canvas.bar(at: Point(x: 2, y: 5), width: 20, fraction: 0.43)
        canvas.sparkline([71.2, 71.0, nil, 70.8, 70.9, 70.4, 70.6], at: Point(x: 2, y: 6), width: 10)
        canvas.fill(Rect(x: 1, y: 8, width: 38, height: 1), character: " ", style: .selection)
        canvas.text("> selected row", at: Point(x: 2, y: 8), style: .selection)
        canvas.horizontalLine(at: Point(x: 1, y: 9), width: 38, style: .border)
        canvas.text("q quit  r refresh", at: Point(x: 1, y: 10), style: Style(.statusText, bold: true))
        canvas.text("日本", at: Point(x: 30, y: 1), style: .accent)
        canvas.text("x", at: Point(x: 31, y: 1), style: .warning)  // over the right half of 日
    }

    @Test func theNcursesScreenHoldsTheSameCellsAsTheInMemoryGrid() throws {
        let pty = try PseudoTerminal(rows: 12, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty)
        defer { screen.stop() }
        #expect(screen.size == Size(width: 40, height: 12))

        let grid = GridCanvas(size: screen.size)
        drawScene(on: grid)
        screen.present(grid)
        try expectScreen(screen, holds: grid)
        #expect(grid.line(3).hasPrefix("│ 日本語のとても… "))
        #expect(DisplayWidth.of(grid.line(3)) == 40)
    }

    /// Compares every cell ncurses holds with the frame's: text, colour pair and attributes.
    func expectScreen(_ screen: Screen, holds grid: GridCanvas) throws {
        var mismatches: [String] = []
        for y in 0..<grid.size.height {
            for x in 0..<grid.size.width {
                let expected = try #require(grid.cell(at: Point(x: x, y: y)))
                let actual = try #require(screen.backend.readCell(at: Point(x: x, y: y)))
                if expected.width != 0 && actual.text != String(expected.character) {
                    mismatches.append("(\(x),\(y)) text \(actual.text.debugDescription) ≠ \(String(expected.character).debugDescription)")
                }
                if actual.pair != screen.palette.pairNumber(for: expected.style.role) {
                    mismatches.append("(\(x),\(y)) pair \(actual.pair) ≠ \(expected.style.role)")
                }
                if actual.attributes != UInt32(screen.palette.attributes(for: expected.style)) {
                    mismatches.append("(\(x),\(y)) attributes \(actual.attributes) for \(expected.style)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    @Test func onlyTheCellsThatChangedAreWrittenAndAnUnchangedFrameWritesNothing() throws {
        let pty = try PseudoTerminal(rows: 12, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty)
        defer { screen.stop() }
        let first = screen.newFrame()
        drawScene(on: first)
        #expect(screen.present(first) == 40 * 12, "the first frame is written whole")

        // One figure changes by one digit: one cell is written, and the screen holds the new frame.
        let second = screen.newFrame()
        drawScene(on: second)
        second.text("72.5 kg", at: Point(x: 2, y: 1), style: .header)
        #expect(screen.present(second) == 1)
        try expectScreen(screen, holds: second)

        // The same frame again (an idle tick): no cell written and not one byte sent to the terminal.
        let before = try pty.bytesWrittenUntilNow()
        let third = screen.newFrame()
        drawScene(on: third)
        third.text("72.5 kg", at: Point(x: 2, y: 1), style: .header)
        #expect(screen.present(third) == 0)
        #expect(try pty.bytesWrittenUntilNow() == before)
    }

    @Test func wideCharactersReplacedByNarrowOnesLeaveNoHalfGlyphBehind() throws {
        let pty = try PseudoTerminal(rows: 4, columns: 20)
        defer { pty.shutDown() }
        let screen = try openScreen(pty)
        defer { screen.stop() }
        let first = screen.newFrame()
        first.clear(.text)
        first.text("日本語 体重", at: Point(x: 0, y: 0), style: .accent)
        first.text("ab日c", at: Point(x: 3, y: 1), style: .good)
        screen.present(first)
        // Each wide character is now cut in half by narrow text, shifted by one cell, or swapped for another.
        let second = screen.newFrame()
        second.clear(.text)
        second.text("x本yz 重体", at: Point(x: 0, y: 0), style: .bad)
        second.text("a日bc", at: Point(x: 4, y: 1), style: .good)
        screen.present(second)
        try expectScreen(screen, holds: second)
    }

    /// Inside tmux, `TERM=xterm-256color` as many set it: the terminfo can redefine colours, tmux cannot.
    @Test func insideTmuxWithXterm256colorThePairsHoldTheNearestStandardColours() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty, term: "xterm-256color", environment: ["TMUX": "/tmp/tmux-0/default,1,0"],
                                    theme: try ThemeCatalog.standard().theme(named: "nord"))
        defer { screen.stop() }
        #expect(screen.colorDepth == .colors256)
        var fg: Int32 = 0, bg: Int32 = 0
        extended_pair_content(Int32(screen.palette.pairNumber(for: .bad)), &fg, &bg)
        #expect(Int(fg) == ColorMapping.xterm256(RGB(0xbf, 0x61, 0x6a)), "nord's red as the nearest xterm-256 colour")
    }

    @Test func colourPairsHoldTheThemeMappedToTheXterm256Palette() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty, term: "tmux-256color", theme: try ThemeCatalog.standard().theme(named: "nord"))
        defer { screen.stop() }
        #expect(screen.colorDepth == .colors256)
        for role in Role.allCases {
            var fg: Int32 = 0, bg: Int32 = 0
            extended_pair_content(Int32(screen.palette.pairNumber(for: role)), &fg, &bg)
            let expected = try #require(screen.palette.colorNumbers(for: role))
            #expect((Int(fg), Int(bg)) == expected, "\(role)")
        }
        var fg: Int32 = 0, bg: Int32 = 0
        extended_pair_content(Int32(screen.palette.pairNumber(for: .bad)), &fg, &bg)
        #expect(Int(fg) == ColorMapping.xterm256(RGB(0xbf, 0x61, 0x6a)))
    }

    @Test func aTerminalThatCanRedefineColoursShowsThemeColoursExactly() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        // An xterm names itself; its terminfo has `initc`, so the palette slots take the theme's colours.
        let screen = try openScreen(pty, term: "xterm-256color", environment: ["XTERM_VERSION": "XTerm(388)"])
        defer { screen.stop() }
        #expect(screen.colorDepth == .trueColor)
        var fg: Int32 = 0, bg: Int32 = 0, r: Int32 = 0, g: Int32 = 0, b: Int32 = 0
        extended_pair_content(Int32(screen.palette.pairNumber(for: .good)), &fg, &bg)
        extended_color_content(fg, &r, &g, &b)
        let good = Theme.builtInDefault[.good]
        #expect([r, g, b] == [good.red, good.green, good.blue].map { Int32($0) * 1000 / 255 })
    }

    @Test func noColorDrawsInMonochromeWithReverseForTheSelection() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty, environment: ["NO_COLOR": "1"])
        defer { screen.stop() }
        #expect(screen.colorDepth == .monochrome)
        let frame = screen.newFrame()
        frame.text("selected", at: Point(x: 0, y: 0), style: .selection)
        frame.text("bad", at: Point(x: 0, y: 1), style: .bad)
        screen.present(frame)
        let selected = try #require(screen.backend.readCell(at: Point(x: 0, y: 0)))
        let bad = try #require(screen.backend.readCell(at: Point(x: 0, y: 1)))
        #expect(selected.pair == 0 && bad.pair == 0)
        #expect(selected.attributes & UInt32(hm_A_REVERSE()) != 0)
        #expect(bad.attributes & UInt32(hm_A_BOLD()) != 0)
    }

    @Test func noColorLeavesTheTerminalsOwnForegroundAndBackground() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty, term: "xterm-256color", environment: ["NO_COLOR": "1"])
        defer { screen.stop() }
        #expect(screen.colorDepth == .monochrome)
        // Pair 0, which every monochrome cell uses: -1 is "the terminal's default", not white on black.
        var fg: Int32 = 0, bg: Int32 = 0
        extended_pair_content(0, &fg, &bg)
        #expect(fg == -1 && bg == -1)
    }

    @Test func keysTypedAtTheTerminalArriveDecoded() async throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty)
        defer { screen.stop() }
        let events = screen.events(tick: .milliseconds(100))
        // What xterm sends (keypad mode): a letter, é and 日 in UTF-8, ↑, F5, Shift-Tab, Home, Enter,
        // Backspace, Ctrl-C, PgDn, then a lone Escape (decoded after the 25 ms escape delay).
        pty.type("qé日\u{1b}OA\u{1b}[15~\u{1b}[Z\u{1b}OH\r\u{7f}\u{03}\u{1b}[6~\u{1b}")
        let expected: [Key] = [.char("q"), .char("é"), .char("日"), .up, .function(5), .backTab, .home,
                               .enter, .backspace, .ctrl("c"), .pageDown, .escape]
        var keys: [Key] = []
        // A guard against hanging, not a time limit under test: counted in ticks (100, 10 s), a loaded machine could trip it.
        let giveUp = ContinuousClock.now + Waiting.patience
        for await event in events {
            if event == .keyReady { keys += screen.readKeys() }
            if keys.count >= expected.count || ContinuousClock.now >= giveUp { break }
        }
        #expect(keys == expected)
    }

    @Test func clicksAndTheWheelArriveAsMouseKeysWhereTheyHappened() async throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try Screen.start(Screen.Options(terminalType: "xterm-256color", inputFD: pty.terminalFD,
                                                     outputFD: pty.terminalFD, environment: ["TERM": "xterm-256color"],
                                                     mouse: true))
        defer { screen.stop() }
        let events = screen.events(tick: .milliseconds(20))
        // What xterm sends in SGR mode (1006), 1-based column;row: a left press at column 11 of row 3 and
        // its release, the wheel up and down at 5;5, then a key. One at a time, as a hand makes them:
        // ncurses merges a press with mouse events that arrive in the same read, so each is sent only when
        // the one before has been read (on a loaded machine a fixed pace let press and release meet). The
        // release gives no key of its own: the next input goes ten ticks after it.
        let sent: [(bytes: String, keysAfter: Int?)] = [("\u{1b}[<0;11;3M", 1), ("\u{1b}[<0;11;3m", nil),
                                                       ("\u{1b}[<64;5;5M", 2), ("\u{1b}[<65;5;5M", 3), ("q", 4)]
        let expected: [Key] = [.mouse(MouseEvent(.click, x: 10, y: 2)), .mouse(MouseEvent(.wheelUp, x: 4, y: 4)),
                               .mouse(MouseEvent(.wheelDown, x: 4, y: 4)), .char("q")]
        var keys: [Key] = []
        var ticks = 0
        var next = 0
        var sentAtTick = 0
        // A guard against hanging, not a time limit under test: 500 ticks (10 s) tripped on a loaded machine.
        let giveUp = ContinuousClock.now + Waiting.patience
        for await event in events {
            if event == .keyReady { keys += screen.readKeys() }
            if event == .tick { ticks += 1 }
            let previousDone = next == 0 || sent[next - 1].keysAfter.map { keys.count >= $0 } ?? (ticks - sentAtTick >= 10)
            if next < sent.count && previousDone {
                pty.type(sent[next].bytes)
                next += 1
                sentAtTick = ticks
            }
            if keys.contains(.char("q")) || ContinuousClock.now >= giveUp { break }
        }
        #expect(keys == expected)
    }

    @Test func withoutTheMouseOptionTheTerminalKeepsTheMouse() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty)
        defer { screen.stop() }
        var old: mmask_t = 0
        #expect(mousemask(0, &old) == 0 && old == 0)
    }

    @Test func aWindowChangeSignalBecomesAResizeEventAndANewSize() async throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let screen = try openScreen(pty)
        defer { screen.stop() }
        let events = screen.events(tick: .milliseconds(100))
        pty.resize(rows: 20, columns: 70)
        kill(getpid(), SIGWINCH)  // as the kernel does; raise() would target this thread, where dispatch blocks signals
        var sawResize = false
        let giveUp = ContinuousClock.now + Waiting.patience  // a guard against hanging, not a time limit under test
        for await event in events {
            if event == .resize { sawResize = true; break }
            if ContinuousClock.now >= giveUp { break }
        }
        #expect(sawResize)
        #expect(screen.updateSize())
        #expect(screen.size == Size(width: 70, height: 20))
        #expect(screen.backend.size == Size(width: 70, height: 20))
        #expect(!screen.updateSize())
    }

    /// ncurses places characters by the C library's `wcwidth`; the grid by `DisplayWidth`, which must not
    /// depend on the locale. They agree on every character of these blocks (Latin to CJK, symbols, emoji),
    /// so the grid, `hmon snapshot` and the screen lay text out alike.
    @Test func displayWidthAgreesWithTheCLibraryInAUTF8Locale() throws {
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil, "the C.UTF-8 locale is missing")
        let blocks: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x2FFF, 0x3000...0x33FF, 0x4E00...0x4FFF,
                                             0xAC00...0xAD00, 0xFE00...0xFFFF, 0x1F000...0x1FAFF]
        var disagreements: [String] = []
        var compared = 0
        for block in blocks {
            for value in block {
                // Characters from Unicode 13 or earlier, which every current C library knows.
                guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age,
                      (age.major, age.minor) <= (13, 0) else { continue }
                let c = Int(hm_wcwidth(value))
                guard c >= 0 else { continue }  // unassigned in the C library's tables
                compared += 1
                if c != DisplayWidth.of(scalar) { disagreements.append("U+\(String(value, radix: 16)): C \(c), ours \(DisplayWidth.of(scalar))") }
            }
        }
        #expect(compared > 12000)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20).joined(separator: "\n"))")
    }

    /// The terminal's modes (input, output, control, local flags and control characters), as `stty -g` shows them.
    func modes(of fd: Int32) -> [UInt32] {
        var settings = termios()
        tcgetattr(fd, &settings)
        let characters = withUnsafeBytes(of: settings.c_cc) { $0.map { UInt32($0) } }
        return [settings.c_iflag, settings.c_oflag, settings.c_cflag, settings.c_lflag] + characters
    }

    @Test func aThrownErrorStillPutsTheTerminalBack() async throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let before = modes(of: pty.terminalFD)
        struct Broken: Error {}
        let options = Screen.Options(terminalType: "xterm-256color", inputFD: pty.terminalFD, outputFD: pty.terminalFD)
        await #expect(throws: Broken.self) {
            try await Screen.run(options) { _ in
                #expect(self.modes(of: pty.terminalFD) != before, "raw mode while the screen is open")
                throw Broken()
            }
        }
        #expect(modes(of: pty.terminalFD) == before)
        try openScreen(pty).stop()  // and the screen is closed, so another can open
    }

    @Test func stoppingTwiceIsHarmlessAndAnotherScreenCanOpenAfter() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        let first = try openScreen(pty)
        #expect(throws: ScreenError.self) { try openScreen(pty) }
        first.stop()
        first.stop()
        let second = try openScreen(pty)
        second.stop()
    }

    @Test func aScreenOnDevNullDrawsAndSeesNoKeys() async throws {
        let devNull = open("/dev/null", O_RDWR)
        defer { close(devNull) }
        let screen = try Screen.start(Screen.Options(terminalType: "xterm-256color", inputFD: devNull, outputFD: devNull,
                                                     requireTerminal: false))
        defer { screen.stop() }
        let frame = screen.newFrame()
        frame.text("drawn", at: Point(x: 0, y: 0))
        #expect(screen.present(frame) > 0)
        #expect(screen.backend.readCell(at: Point(x: 0, y: 0))?.text == "d")
        // /dev/null is always "readable"; it must not be taken for keys arriving.
        var seen: [TerminalEvent] = []
        for await event in screen.events(tick: .milliseconds(10)) {
            seen.append(event)
            if seen.count == 3 { break }
        }
        #expect(seen == [.tick, .tick, .tick])
    }

    @Test func withoutATerminalItRefusesAndSuggestsSnapshot() throws {
        let devNull = open("/dev/null", O_RDWR)
        defer { close(devNull) }
        do {
            _ = try Screen.start(Screen.Options(inputFD: devNull, outputFD: devNull))
            Issue.record("a screen opened on /dev/null")
        } catch {
            #expect(error == .notATerminal)
            #expect(error.description == "hmon needs a terminal; try `hmon snapshot`")
        }
    }

    @Test func anUnknownTerminalTypeIsAClearError() throws {
        let pty = try PseudoTerminal(rows: 10, columns: 40)
        defer { pty.shutDown() }
        #expect(throws: ScreenError.cannotStart(
            "unknown terminal type 'no-such-term'; set TERM to one your system knows (e.g. xterm-256color)")) {
            try openScreen(pty, term: "no-such-term")
        }
    }
}
