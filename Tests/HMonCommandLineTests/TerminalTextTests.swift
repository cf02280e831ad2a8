import HealthCore
import HealthFormats
import HealthModel
import HMonCommandLine
import Testing

/// The one escaping function the command line prints outside text through (issue 16, item 3).
@Suite struct TerminalTextTests {
    @Test func whatCouldDriveATerminalIsWrittenAsAnEscape() {
        #expect(TerminalText.escaped("Evil\u{1B}[2J\u{1B}]0;pwned\u{07}Scale") == #"Evil\u{1B}[2J\u{1B}]0;pwned\u{7}Scale"#)
        #expect(TerminalText.escaped("nul\u{0}del\u{7F}csi\u{9B}") == #"nul\u{0}del\u{7F}csi\u{9B}"#)
        #expect(TerminalText.escaped("abc\u{202E}def\u{200B}\u{2066}") == #"abc\u{202E}def\u{200B}\u{2066}"#)
        #expect(TerminalText.escaped("two\nlines\r") == #"two\u{A}lines\u{D}"#)
        #expect(TerminalText.escaped(#"C:\path"#) == #"C:\\path"#, "a backslash cannot fake an escape")
    }

    @Test func printableTextIsLeftAlone() {
        for text in ["Bathroom scale", "Jörg's iPhone", "Весы", "体重計 🙂", "72.4 kg · 1,234 kcal — ok"] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test func linesKeepTheirBreaks() {
        #expect(TerminalText.escapedLines("ID  NAME\nabc  Evil\u{1B}[2J\n") == "ID  NAME\nabc  Evil\\u{1B}[2J\n")
    }

    @Test func failureMessagesAreEscaped() {
        let message = FailureText.message(for: ImportError(file: "evil\u{1B}]0;x\u{07}.xml", line: 2, column: 1,
                                                           problem: "unexpected byte \u{0}"))
        #expect(message == #"evil\u{1B}]0;x\u{7}.xml:2:1: unexpected byte \u{0}"#)
    }
}
