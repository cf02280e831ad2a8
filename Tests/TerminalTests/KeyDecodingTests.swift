import CNcurses
import Testing
@testable import Terminal

@Suite struct KeyDecodingTests {
    @Test func printableCharactersIncludingWideOnesDecodeAsThemselves() {
        #expect(Key.decode(.character(0x71)) == .char("q"))
        #expect(Key.decode(.character(0x20)) == .char(" "))
        #expect(Key.decode(.character(0xE9)) == .char("é"))
        #expect(Key.decode(.character(0x65E5)) == .char("日"))
        #expect(Key.decode(.character(0x1F525)) == .char("🔥"))
    }

    @Test func enterArrivesAsReturnNewlineOrKeypadEnter() {
        #expect(Key.decode(.character(13)) == .enter)
        #expect(Key.decode(.character(10)) == .enter)
        #expect(Key.decode(.keyCode(KEY_ENTER)) == .enter)
    }

    @Test func backspaceArrivesAsDeleteCtrlHOrTheBackspaceKey() {
        #expect(Key.decode(.character(127)) == .backspace)
        #expect(Key.decode(.character(8)) == .backspace)
        #expect(Key.decode(.keyCode(KEY_BACKSPACE)) == .backspace)
        #expect(Key.decode(.keyCode(KEY_DC)) == .delete)
    }

    @Test func controlCharactersBecomeCtrlLetters() {
        #expect(Key.decode(.character(3)) == .ctrl("c"))
        #expect(Key.decode(.character(1)) == .ctrl("a"))
        #expect(Key.decode(.character(26)) == .ctrl("z"))
        #expect(Key.decode(.character(3)).description == "Ctrl-C")
        #expect(Key.decode(.character(9)) == .tab)
        #expect(Key.decode(.character(27)) == .escape)
        #expect(Key.decode(.character(0)) == .other(0))
    }

    @Test func navigationAndFunctionKeysDecodeByName() {
        let expected: [(Int32, Key)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_HOME, .home), (KEY_END, .end), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown),
            (KEY_BTAB, .backTab), (KEY_IC, .insert), (KEY_RESIZE, .resize),
            (hm_KEY_F(1), .function(1)), (hm_KEY_F(12), .function(12)),
        ]
        for (code, key) in expected {
            #expect(Key.decode(.keyCode(code)) == key)
        }
        #expect(Key.decode(.keyCode(KEY_NPAGE)).description == "PgDn")
        #expect(Key.decode(.keyCode(KEY_MOUSE)) == .other(KEY_MOUSE))
    }
}
