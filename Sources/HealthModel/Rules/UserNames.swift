import Foundation

/// When two user names are the same account: compared after Unicode compatibility normalization (NFKC)
/// and case folding, so "Élodie" (precomposed or not) is "élodie" and full-width "ＡＬＩＣＥ" is "alice";
/// and a name is refused when it only *looks* like an existing one through letters of another script,
/// as the Cyrillic "аlice" does "alice".
///
/// The look-alike test is Unicode TR39's skeleton (https://www.unicode.org/reports/tr39/#Confusable_Detection)
/// on a small part of its confusables table: the lowercase Cyrillic and Greek letters whose glyphs are
/// those of a Latin letter in common fonts (after folding, uppercase look-alikes such as "А" and "Α"
/// reach the same letters). Other scripts and digit/letter pairs ("0"/"o", "l"/"1") are out of scope.
public enum UserNames {
    /// The name as the store compares it: NFKC, case-folded, NFKC again (folding can denormalize).
    public static func key(_ name: String) -> String {
        name.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
    }

    /// The key with each Cyrillic or Greek look-alike replaced by its Latin letter: two names with the
    /// same skeleton look the same.
    public static func skeleton(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in key(name).decomposedStringWithCanonicalMapping.unicodeScalars {
            scalars.append(confusables[scalar] ?? scalar)
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }

    /// From confusables.txt (Unicode 15.1), lowercase Cyrillic and Greek entries that map to one Latin letter.
    static let confusables: [Unicode.Scalar: Unicode.Scalar] = [
        // Cyrillic
        "\u{0430}": "a", "\u{0441}": "c", "\u{0501}": "d", "\u{0435}": "e", "\u{04BB}": "h", "\u{0456}": "i",
        "\u{0458}": "j", "\u{04CF}": "l", "\u{043E}": "o", "\u{0440}": "p", "\u{051B}": "q", "\u{0455}": "s",
        "\u{051D}": "w", "\u{0445}": "x", "\u{0443}": "y", "\u{0475}": "v", "\u{04AF}": "y",
        // Greek
        "\u{03B1}": "a", "\u{03B9}": "i", "\u{03BD}": "v", "\u{03BF}": "o", "\u{03C1}": "p",
        "\u{03C3}": "o", "\u{03C5}": "u", "\u{03C7}": "x", "\u{03B3}": "y",
    ]
}
