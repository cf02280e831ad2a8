import Foundation
import HealthCore
import HealthModel

/// Text from outside hmon (names, file names, paths, a file's bytes in an error) as the command line
/// may print it: every scalar the core's `TextRules` refuses in a name is written as `\u{1B}`, so no
/// stored name, argument or file can move the cursor, clear the screen, retitle the window or reorder
/// what a terminal shows. A backslash is written as `\\` so an escape in the output is never ambiguous.
public enum TerminalText {
    /// One value (a name, a path), with line breaks escaped too.
    public static func escaped(_ text: String) -> String {
        escaping(text, keepingLineBreaks: false)
    }

    /// Several lines of output: each line escaped, the line breaks between them kept.
    public static func escapedLines(_ text: String) -> String {
        escaping(text, keepingLineBreaks: true)
    }

    private static func escaping(_ text: String, keepingLineBreaks: Bool) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || TextRules.isUnsafe($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar == "\n" && keepingLineBreaks {
                out.unicodeScalars.append(scalar)
            } else if scalar == "\\" {
                out += "\\\\"
            } else if TextRules.isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// `print` for the command line's output: what it prints goes through `TerminalText.escapedLines`.
public func printEscaped(_ text: String) {
    print(TerminalText.escapedLines(text))
}

/// A note for the person beside a command's output (a device made for a first reading): standard error, so
/// a script reading standard output sees only the result. Escaped like `printEscaped`.
public func noteEscaped(_ text: String) {
    FileHandle.standardError.write(Data((TerminalText.escapedLines(text) + "\n").utf8))
}
