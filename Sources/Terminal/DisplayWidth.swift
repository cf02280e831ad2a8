/// How many terminal cells text takes, decided from Unicode data compiled into the program, never from the
/// process locale: `GridCanvas` and `hmon snapshot` must lay text out the same way in tests, in pipes and
/// on screen. Wide East Asian characters and emoji take two cells, combining marks and joiners none.
public enum DisplayWidth {
    /// Cells taken by one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1 {
            // An emoji presentation selector or a flag (two regional indicators) makes the cluster an emoji.
            if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
            if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        }
        for scalar in scalars {
            let width = of(scalar)
            if width > 0 { return width }
        }
        return 0
    }

    /// Cells taken by `text`: the sum over its grapheme clusters.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// Cells taken by one Unicode scalar on its own. Control characters count 0: canvases drop them.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        if value < 0x300 { return 1 }  // Latin fast path (the soft hyphen U+00AD prints as one cell).
        if prependedMarks.contains(value) { return 1 }  // format characters that print (Arabic number sign …)
        if (0x1F1E6...0x1F1FF).contains(value) { return 1 }  // a lone regional indicator; a pair (a flag) is 2
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and final consonants join.
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// Prepended concatenation marks: category Cf, yet they print (as the C library also counts them).
    private static let prependedMarks: Set<UInt32> = [
        0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD,
    ]

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, W and F, folded into ranges).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic punctuation and space
        0x3041...0x33FF,    // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,    // CJK extension A
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18AFF,  // Tangut
        0x1B000...0x1B2FF,  // Kana supplement, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B–F
        0x30000...0x3FFFD,  // CJK extension G
    ]
}

extension DisplayWidth {
    /// How many of `clusters` (characters and their widths) a canvas keeps before the "…" of a text cut to
    /// `limit` cells: as many as fit in `limit - 1`, backed off to the last space when the cut would
    /// otherwise fall inside a word, so "Energy eaten (kcal)" reads "Energy eaten…", never "Energy eaten (kca…".
    /// A text with no space to back off to in the second half of what fits (one long name, an id, a path) is
    /// cut where it must be: backing off further would lose more than it keeps.
    public static func keptBeforeCut(_ clusters: [(Character, Int)], limit: Int) -> Int {
        var kept = 0, used = 0
        for (_, width) in clusters {
            if used + width > limit - 1 { break }
            used += width
            kept += 1
        }
        guard kept > 0, kept < clusters.count else { return kept }
        func isWordPart(_ c: Character) -> Bool { c.isLetter || c.isNumber }
        guard isWordPart(clusters[kept - 1].0), isWordPart(clusters[kept].0),
              let space = clusters[..<kept].lastIndex(where: { $0.0.isWhitespace }) else { return kept }
        var end = space
        // Nor a separator left hanging before the "…" ("updated 18:00 ·…").
        while end > 0, clusters[end - 1].0.isWhitespace || clusters[end - 1].0 == "·" { end -= 1 }
        let keptWidth = clusters[..<end].reduce(0) { $0 + $1.1 }
        return end > 0 && 2 * keptWidth >= limit - 1 ? end : kept
    }

    /// The characters of `text` a canvas keeps before the "…" when it cuts the text to `limit` cells
    /// (`keptBeforeCut`), or the whole text when it fits.
    public static func kept(_ text: String, limit: Int) -> String {
        let clusters = text.compactMap { c -> (Character, Int)? in
            let w = of(c)
            return w > 0 ? (c, w) : nil
        }
        guard clusters.map(\.1).reduce(0, +) > limit else { return String(clusters.map(\.0)) }
        return String(clusters.prefix(keptBeforeCut(clusters, limit: limit)).map(\.0))
    }

    /// `text` cut to at most `width` cells, ending in "…" when something was cut. Wide characters are never split.
    public static func clip(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// What a field being typed into shows in `width` cells, with a cell left for the cursor: all of `text`
    /// when it fits, else its end after a "…" (the end is where the typing is), so a long entry scrolls
    /// instead of seeming to drop what is typed. Wide characters are never split.
    public static func typingTail(_ text: String, in width: Int) -> String {
        guard width > 1 else { return "" }
        if of(text) < width { return text }
        var tail: [Character] = []
        var used = 0
        for character in text.reversed() {
            let w = of(character)
            if used + w > width - 2 { break }
            tail.append(character)
            used += w
        }
        return "…" + String(tail.reversed())
    }
}

extension DisplayWidth {
    /// What a field shows in `width` cells when its cursor may be inside the text, and the cell the cursor
    /// is in. At the end this is `typingTail` with the cursor after it; inside, the text from its start when
    /// the cursor's character fits there, else the characters just before the cursor after a "…"; a cut end
    /// shows "…" too. Wide characters are never split.
    public static func typingWindow(_ text: String, cursor: Int, in width: Int) -> (text: String, cursorColumn: Int) {
        let characters = Array(text)
        guard cursor < characters.count else {
            let tail = typingTail(text, in: width)
            return (tail, of(tail))
        }
        guard width > 2 else { return ("", 0) }
        let before = of(String(characters[..<cursor]))
        if of(text) < width { return (text, before) }
        let under = of(characters[cursor])
        if before + under <= width - 1 { return (clip(text, to: width), before) }
        var left: [Character] = []
        var used = 0
        for character in characters[..<cursor].reversed() {
            let w = of(character)
            if used + w > width - 2 - under { break }
            left.append(character)
            used += w
        }
        let more = cursor + 1 < characters.count ? "…" : ""
        return ("…" + String(left.reversed()) + String(characters[cursor]) + more, 1 + used)
    }
}
