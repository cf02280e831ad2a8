/// One cell of a `GridCanvas`.
public struct Cell: Hashable, Sendable {
    /// What the cell shows; for the right half of a wide character, the same character as its left half.
    public var character: Character
    public var style: Style
    /// 1 for an ordinary cell, 2 for the left half of a wide character, 0 for its right half.
    public var width: Int

    public static let blank = Cell(character: " ", style: .text, width: 1)
}

/// An in-memory canvas: a grid of cells that tests and `hmon snapshot` read back as text.
/// It lays text out exactly as `CursesCanvas` does (same code), without a terminal or the process locale.
public final class GridCanvas: Canvas {
    public let size: Size
    /// Row after row; the curses backend compares them with the frame it wrote last.
    private(set) var cells: [Cell]

    public init(size: Size) {
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
        cells = Array(repeating: .blank, count: self.size.width * self.size.height)
    }

    public convenience init(width: Int, height: Int) {
        self.init(size: Size(width: width, height: height))
    }

    /// The cell at `point`, or nil outside the canvas.
    public func cell(at point: Point) -> Cell? {
        guard contains(point.x, point.y) else { return nil }
        return cells[point.y * size.width + point.x]
    }

    /// The canvas as lines of text (one per row, trailing blanks trimmed), joined by "\n".
    public func renderPlain() -> String {
        (0..<size.height).map { row(at: $0, marks: false, attributes: false) }.joined(separator: "\n")
    }

    /// Like `renderPlain()`, with every run of text not in plain `.text` style wrapped in marks:
    /// `[bad]−0.4 kg[/]`. With `attributes`, marks also name bold/underline/reverse: `[bad+bold]`.
    public func renderStyled(attributes: Bool = false) -> String {
        (0..<size.height).map { row(at: $0, marks: true, attributes: attributes) }.joined(separator: "\n")
    }

    /// The text of one row, trailing blanks trimmed (plain only).
    public func line(_ y: Int) -> String {
        guard y >= 0, y < size.height else { return "" }
        return row(at: y, marks: false, attributes: false)
    }

    // MARK: Canvas

    public func clear(_ style: Style) {
        cells = Array(repeating: Cell(character: " ", style: style, width: 1), count: cells.count)
    }

    @discardableResult
    public func text(_ text: String, at: Point, style: Style, maxWidth: Int?) -> Int {
        layoutText(text, at: at, style: style, maxWidth: maxWidth)
    }

    public func fill(_ rect: Rect, character: Character, style: Style) {
        layoutFill(rect, character: character, style: style)
    }

    public func box(_ rect: Rect, style: Style, title: String?, titleStyle: Style) {
        layoutBox(rect, style: style, title: title, titleStyle: titleStyle)
    }

    public func horizontalLine(at: Point, width: Int, style: Style) {
        layoutHorizontalLine(at: at, width: width, style: style)
    }

    public func verticalLine(at: Point, height: Int, style: Style) {
        layoutVerticalLine(at: at, height: height, style: style)
    }

    // MARK: Cells

    private func contains(_ x: Int, _ y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size.width && y < size.height
    }

    private func markName(_ style: Style, attributes: Bool) -> String? {
        var name = style.role.rawValue
        if attributes {
            if style.bold { name += "+bold" }
            if style.underline { name += "+underline" }
            if style.reverse { name += "+reverse" }
        }
        return name == Role.text.rawValue ? nil : name
    }

    private func row(at y: Int, marks: Bool, attributes: Bool) -> String {
        var run: [(Character, String?)] = []
        for x in 0..<size.width {
            let cell = cells[y * size.width + x]
            guard cell.width != 0 else { continue }
            run.append((cell.character, marks ? markName(cell.style, attributes: attributes) : nil))
        }
        while let last = run.last, last.0 == " ", last.1 == nil { run.removeLast() }
        var out = ""
        var open: String?
        for (character, mark) in run {
            if mark != open {
                if open != nil { out += "[/]" }
                if let mark { out += "[\(mark)]" }
                open = mark
            }
            out.append(character)
        }
        if open != nil { out += "[/]" }
        return out
    }
}

extension GridCanvas: CellCanvas {
    func put(_ cluster: Character, width: Int, x: Int, y: Int, style: Style) {
        guard contains(x, y), contains(x + width - 1, y) else {
            // A wide character that would hang over the edge shows as a blank rather than half a glyph.
            if width == 2, contains(x, y) { put(" ", width: 1, x: x, y: y, style: style) }
            return
        }
        // Never leave half a wide character: overwriting either half blanks the other.
        for cx in x..<(x + width) {
            let i = y * size.width + cx
            if cells[i].width == 0, cx - 1 >= 0, cx == x {
                cells[i - 1] = Cell(character: " ", style: cells[i - 1].style, width: 1)
            }
            if cells[i].width == 2, cx == x + width - 1, cx + 1 < size.width {
                cells[i + 1] = Cell(character: " ", style: cells[i + 1].style, width: 1)
            }
        }
        let i = y * size.width + x
        cells[i] = Cell(character: cluster, style: style, width: width)
        if width == 2 { cells[i + 1] = Cell(character: cluster, style: style, width: 0) }
    }
}
