import Testing
@testable import Terminal

@Suite struct ColorMappingTests {
    @Test func pureColoursMapToTheirXterm256Index() {
        #expect(ColorMapping.xterm256(RGB(0xff, 0x00, 0x00)) == 196)
        #expect(ColorMapping.xterm256(RGB(0x00, 0x00, 0x00)) == 16)
        #expect(ColorMapping.xterm256(RGB(0xff, 0xff, 0xff)) == 231)
        #expect(ColorMapping.xterm256(RGB(0x00, 0x00, 0xff)) == 21)
    }

    @Test func greysUseTheGreyRampWhenItIsCloser() {
        // #808080: the ramp has 128 exactly (232 + 12); the cube's nearest is 135,135,135 (102).
        #expect(ColorMapping.xterm256(RGB(0x80, 0x80, 0x80)) == 244)
        // #1e1e1e: grey 28 (234) is nearer than the cube's black (16).
        #expect(ColorMapping.xterm256(RGB(0x1e, 0x1e, 0x1e)) == 234)
        // #5f5f5f is in the cube exactly (95,95,95 = 16 + 36 + 6 + 1).
        #expect(ColorMapping.xterm256(RGB(0x5f, 0x5f, 0x5f)) == 59)
    }

    @Test func themeColoursMapToTheNearestCubeColour() {
        // #88c0d0 (nord frost): channels 136,192,208 → levels 135(2),175(3),215(4) → 16+72+18+4.
        #expect(ColorMapping.xterm256(RGB(0x88, 0xc0, 0xd0)) == 110)
        // #e06c75: 224,108,117 → 215(4),95(1),135(2) → 16+144+6+2.
        #expect(ColorMapping.xterm256(RGB(0xe0, 0x6c, 0x75)) == 168)
    }

    @Test func coloursMapToTheNearestBasicColour() {
        #expect(ColorMapping.basic8(RGB(0xff, 0x00, 0x00)) == 1)
        #expect(ColorMapping.basic8(RGB(0x10, 0x10, 0x10)) == 0)
        #expect(ColorMapping.basic8(RGB(0xf0, 0xf0, 0xf0)) == 7)
        // Pastel theme colours keep their hue: a soft green stays green (by RGB distance it would be yellow).
        #expect(ColorMapping.basic8(RGB(0x98, 0xc3, 0x79)) == 2)
        #expect(ColorMapping.basic8(RGB(0x61, 0xaf, 0xef)) == 6)
        #expect(ColorMapping.basic8(RGB(0xe5, 0xc0, 0x7b)) == 3)
        #expect(ColorMapping.basic8(RGB(0xe0, 0x6c, 0x75)) == 1)
        #expect(ColorMapping.basic8(RGB(0xc6, 0x78, 0xdd)) == 5)
        #expect(ColorMapping.basic8(RGB(0x20, 0x20, 0xc0)) == 4)
        #expect(ColorMapping.basic16(RGB(0xff, 0x00, 0x00)) == 9)
        #expect(ColorMapping.basic16(RGB(0xcd, 0x00, 0x00)) == 1)
        #expect(ColorMapping.basic16(RGB(0x80, 0x80, 0x80)) == 8)
        #expect(ColorMapping.basic16(RGB(0xff, 0xff, 0xff)) == 15)
    }

    @Test func hexColoursParseAndPrint() {
        #expect(RGB(hex: "#0A0b0C") == RGB(10, 11, 12))
        #expect(RGB(hex: "#0a0b0c")?.description == "#0a0b0c")
        #expect(RGB(hex: "0a0b0c") == nil)
        #expect(RGB(hex: "#0a0b0") == nil)
        #expect(RGB(hex: "#0a0b0g") == nil)
    }

    @Test func noColorOrTheFlagGiveMonochrome() {
        #expect(ColorDepth.detect(colors: 256, canChangeColor: false, environment: ["NO_COLOR": "1"]) == .monochrome)
        #expect(ColorDepth.detect(colors: 256, canChangeColor: false, environment: [:], noColor: true) == .monochrome)
        // An empty NO_COLOR does not count (no-color.org).
        #expect(ColorDepth.detect(colors: 256, canChangeColor: false, environment: ["NO_COLOR": ""]) == .colors256)
    }

    @Test func depthFollowsWhatTheTerminalReports() {
        // A 256-colour terminfo gives exact colours only by redefining slots, which needs `initc` and a
        // terminal known to honour it.
        #expect(ColorDepth.detect(colors: 256, canChangeColor: false, environment: ["COLORTERM": "truecolor"]) == .colors256)
        #expect(ColorDepth.detect(colors: 256, canChangeColor: true, environment: ["COLORTERM": "truecolor"]) == .trueColor)
        #expect(ColorDepth.detect(colors: 256, canChangeColor: true, environment: ["XTERM_VERSION": "XTerm(388)"]) == .trueColor)
        #expect(ColorDepth.detect(colors: 256, canChangeColor: true, environment: [:]) == .colors256, "an unknown terminal")
        #expect(ColorDepth.detect(colors: 0x100_0000, canChangeColor: false, environment: [:]) == .trueColor)
        #expect(ColorDepth.detect(colors: 256, canChangeColor: false, environment: [:]) == .colors256)
        #expect(ColorDepth.detect(colors: 16, canChangeColor: false, environment: ["COLORTERM": "truecolor"]) == .colors16)
        #expect(ColorDepth.detect(colors: 8, canChangeColor: false, environment: [:]) == .colors8)
        #expect(ColorDepth.detect(colors: -1, canChangeColor: false, environment: [:]) == .monochrome)
    }

    /// Issue 28, item 8: inside tmux with `TERM=xterm-256color` hmon redefined palette slots that tmux
    /// ignores, and drew black on navy. Inside a multiplexer the nearest of the standard 256 is used, even
    /// when the outer terminal says it draws direct colour.
    @Test func insideAMultiplexerThePaletteIsNeverRedefined() {
        for environment in [["TMUX": "/tmp/tmux-0/default,123,0", "TERM": "xterm-256color", "COLORTERM": "truecolor"],
                            ["TERM": "tmux-256color", "COLORTERM": "truecolor"],
                            ["TERM": "screen-256color", "XTERM_VERSION": "XTerm(388)"],
                            ["STY": "1234.pts-0.host", "TERM": "xterm-256color", "VTE_VERSION": "7600"]] {
            #expect(ColorDepth.detect(colors: 256, canChangeColor: true, environment: environment) == .colors256, "\(environment)")
        }
        // A direct-colour terminfo (xterm-direct, tmux's own direct entries) needs no slots: exact colours still.
        #expect(ColorDepth.detect(colors: 0x100_0000, canChangeColor: false, environment: ["TMUX": "x"]) == .trueColor)
    }
}
