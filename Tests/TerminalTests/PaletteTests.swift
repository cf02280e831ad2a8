import CNcurses
import Testing
@testable import Terminal

@Suite struct PaletteTests {
    @Test func eachRoleHasItsOwnPairAndMonochromeUsesNone() {
        let colour = Palette(theme: .builtInDefault, depth: .colors256)
        let pairs = Role.allCases.map { colour.pairNumber(for: $0) }
        #expect(Set(pairs).count == Role.allCases.count)
        #expect(!pairs.contains(0))
        let mono = Palette(theme: .builtInDefault, depth: .monochrome)
        #expect(Role.allCases.allSatisfy { mono.pairNumber(for: $0) == 0 })
        #expect(mono.colorNumbers(for: .text) == nil)
    }

    @Test func inMonochromeSelectionBadAndGoodStayDistinct() {
        let mono = Palette(theme: .builtInDefault, depth: .monochrome)
        let looks = [Role.text, .selection, .bad, .good, .warning].map { mono.attributes(for: Style($0)) }
        #expect(Set(looks).count == looks.count)
        #expect(mono.attributes(for: .selection) & hm_A_REVERSE() != 0)
        #expect(mono.attributes(for: Style(.bad)) & hm_A_BOLD() != 0)
        // A reversed style on a reversed role cancels out rather than vanishing into the selection bar.
        #expect(mono.attributes(for: Style(.selection, reverse: true)) & hm_A_REVERSE() == 0)
    }

    @Test func selectionAndStatusBarsAreTextOnTheirOwnBackground() {
        let palette = Palette(theme: .builtInDefault, depth: .colors256)
        let theme = Theme.builtInDefault
        #expect(palette.colorNumbers(for: .selection)! ==
                (ColorMapping.xterm256(theme[.selectionText]), ColorMapping.xterm256(theme[.selection])))
        #expect(palette.colorNumbers(for: .bad)! ==
                (ColorMapping.xterm256(theme[.bad]), ColorMapping.xterm256(theme[.background])))
    }

    @Test func textThatWouldVanishOnAFewColoursGetsTheContrastingColour() {
        // Dim grey on near-black: both become black (0) among the basic 8, so the text turns white (7).
        let theme = Theme(name: "t", colors: [.background: RGB(0x10, 0x10, 0x10), .dim: RGB(0x30, 0x30, 0x30)])
        let palette = Palette(theme: theme, depth: .colors8)
        #expect(palette.colorNumbers(for: .dim)! == (7, 0))
        #expect(palette.attributes(for: .dim) & hm_A_DIM() != 0)
    }
}
