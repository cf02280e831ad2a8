/// The one primitive both canvases implement. All layout (clipping by display width, the ellipsis, boxes,
/// lines, fills) lives once in this extension, so the ncurses screen and the in-memory grid cannot drift apart.
protocol CellCanvas: Canvas {
    /// Puts one grapheme `cluster` that takes `width` cells (1 or 2) at column `x`, row `y`.
    /// Implementations ignore cells outside the canvas.
    func put(_ cluster: Character, width: Int, x: Int, y: Int, style: Style)
}

/// Box-drawing characters shared by both canvases.
enum Line {
    static let horizontal: Character = "─"
    static let vertical: Character = "│"
    static let topLeft: Character = "┌"
    static let topRight: Character = "┐"
    static let bottomLeft: Character = "└"
    static let bottomRight: Character = "┘"
    static let ellipsis: Character = "…"
}

extension CellCanvas {
    func layoutText(_ text: String, at origin: Point, style: Style, maxWidth: Int?) -> Int {
        guard origin.y >= 0, origin.y < size.height else { return 0 }
        var limit = size.width - origin.x
        if let maxWidth { limit = min(limit, maxWidth) }
        guard limit > 0 else { return 0 }

        var clusters: [(Character, Int)] = []
        var total = 0
        for character in text {
            let width = DisplayWidth.of(character)
            guard width > 0 else { continue }  // control characters and stray combining marks
            clusters.append((character, width))
            total += width
        }

        var x = origin.x
        if total <= limit {
            for (character, width) in clusters {
                put(character, width: width, x: x, y: origin.y, style: style)
                x += width
            }
            return total
        }
        // Cut: keep what fits before a one-cell ellipsis (between words when it can), then pad so the cut text
        // fills exactly `limit` cells.
        for (character, width) in clusters.prefix(DisplayWidth.keptBeforeCut(clusters, limit: limit)) {
            put(character, width: width, x: x, y: origin.y, style: style)
            x += width
        }
        put(Line.ellipsis, width: 1, x: x, y: origin.y, style: style)
        x += 1
        while x - origin.x < limit {
            put(" ", width: 1, x: x, y: origin.y, style: style)
            x += 1
        }
        return limit
    }

    func layoutFill(_ rect: Rect, character: Character, style: Style) {
        let width = max(1, DisplayWidth.of(character))
        let x0 = max(0, rect.x), x1 = min(size.width, rect.maxX)
        let y0 = max(0, rect.y), y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            var x = x0
            while x + width <= x1 {
                put(character, width: width, x: x, y: y, style: style)
                x += width
            }
            if x < x1 { put(" ", width: 1, x: x, y: y, style: style) }
        }
    }

    func layoutHorizontalLine(at origin: Point, width: Int, style: Style) {
        for x in origin.x..<(origin.x + max(0, width)) {
            put(Line.horizontal, width: 1, x: x, y: origin.y, style: style)
        }
    }

    func layoutVerticalLine(at origin: Point, height: Int, style: Style) {
        for y in origin.y..<(origin.y + max(0, height)) {
            put(Line.vertical, width: 1, x: origin.x, y: y, style: style)
        }
    }

    func layoutBox(_ rect: Rect, style: Style, title: String?, titleStyle: Style) {
        guard rect.width >= 2, rect.height >= 2 else {
            if rect.height == 1 { layoutHorizontalLine(at: Point(x: rect.x, y: rect.y), width: rect.width, style: style) }
            else if rect.width == 1 { layoutVerticalLine(at: Point(x: rect.x, y: rect.y), height: rect.height, style: style) }
            return
        }
        let right = rect.maxX - 1, bottom = rect.maxY - 1
        layoutHorizontalLine(at: Point(x: rect.x + 1, y: rect.y), width: rect.width - 2, style: style)
        layoutHorizontalLine(at: Point(x: rect.x + 1, y: bottom), width: rect.width - 2, style: style)
        layoutVerticalLine(at: Point(x: rect.x, y: rect.y + 1), height: rect.height - 2, style: style)
        layoutVerticalLine(at: Point(x: right, y: rect.y + 1), height: rect.height - 2, style: style)
        put(Line.topLeft, width: 1, x: rect.x, y: rect.y, style: style)
        put(Line.topRight, width: 1, x: right, y: rect.y, style: style)
        put(Line.bottomLeft, width: 1, x: rect.x, y: bottom, style: style)
        put(Line.bottomRight, width: 1, x: right, y: bottom, style: style)

        // "┌─ Title ──┐": the title sits two cells in, with a blank on each side, and is cut before the corner.
        guard let title, !title.isEmpty, rect.width >= 7 else { return }
        put(" ", width: 1, x: rect.x + 2, y: rect.y, style: style)
        let written = layoutText(title, at: Point(x: rect.x + 3, y: rect.y), style: titleStyle, maxWidth: rect.width - 6)
        put(" ", width: 1, x: rect.x + 3 + written, y: rect.y, style: style)
    }
}
