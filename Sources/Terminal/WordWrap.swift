/// Text broken into lines of at most a given number of cells, at spaces where it can be, so a message
/// shows whole instead of being cut at the edge of its box.
public enum WordWrap {
    /// The lines of `text` no wider than `width` cells. A word wider than a line is split inside it.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var wordWidth = DisplayWidth.of(word)
            if lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 { lines.append(line) }
            // A word longer than a whole line: as many cells as fit, then the rest on the next line.
            while wordWidth > width {
                var head = ""
                var headWidth = 0
                for character in word {
                    let cells = DisplayWidth.of(character)
                    if headWidth + cells > width { break }
                    head.append(character)
                    headWidth += cells
                }
                lines.append(head)
                word.removeFirst(head.count)
                wordWidth -= headWidth
            }
            line = word
            lineWidth = wordWidth
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }
}
