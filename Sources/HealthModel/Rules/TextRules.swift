/// What text from a person or a file may hold before hmon stores it as a name or a description: the one
/// rule the command line, the importer and the REST server all go through (through the store), so a
/// name can never drive the terminal that later prints it.
///
/// Refused: every scalar of the Unicode general categories Cc (C0 controls, DEL, C1 controls), Cf
/// (format characters: the bidirectional overrides and isolates U+202A–U+202E and U+2066–U+2069, the
/// marks U+200E/U+200F/U+061C, zero-width U+200B–U+200D, U+2060 and U+FEFF, soft hyphen, tag
/// characters) and Zl/Zp (U+2028 and U+2029). None of them is needed in a name, and each can hide or
/// rewrite what a terminal shows. The same test is what the command line escapes when it prints
/// (`TerminalText` in HMonCommandLine), so what one refuses the other never prints raw.
public enum TextRules {
    /// The scalar an import puts in place of one it may not store: visible, and obviously a stand-in.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Whether `scalar` may not appear in a stored name or description, nor raw on a terminal.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// The first scalar of `text` that `isUnsafe`, with its position (1-based, in characters as a person
    /// counts them); nil when there is none.
    public static func firstUnsafe(in text: String) -> (scalar: Unicode.Scalar, position: Int)? {
        var position = 0
        for character in text {
            position += 1
            if let scalar = character.unicodeScalars.first(where: isUnsafe) { return (scalar, position) }
        }
        return nil
    }

    /// Throws `.invalidValue` naming `what` ("the device name"), the character and where it is, when `text`
    /// holds a scalar that `isUnsafe`.
    public static func check(_ text: String, as what: String) throws {
        guard let (scalar, position) = firstUnsafe(in: text) else { return }
        throw HealthError.invalidValue(
            "\(what) holds \(describe(scalar)) at character \(position), which could change what a terminal shows: remove it")
    }

    /// `text` with each scalar that `isUnsafe` replaced by `replacement`, and how many were replaced.
    public static func replacingUnsafe(in text: String) -> (text: String, replaced: Int) {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return (text, 0) }
        var scalars = String.UnicodeScalarView()
        var replaced = 0
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                scalars.append(replacement)
                replaced += 1
            } else {
                scalars.append(scalar)
            }
        }
        return (String(scalars), replaced)
    }

    /// "a control character (U+001B)", "a format character (U+202E)".
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let kind = scalar.properties.generalCategory == .control ? "a control character" : "an invisible formatting character"
        return "\(kind) (\(codePoint(scalar)))"
    }

    /// "U+001B".
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
