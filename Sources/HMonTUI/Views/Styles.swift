import Terminal

/// The few style combinations the views share, so a role means the same thing on every screen.
enum Styles {
    static let label = Style(.dim)
    static let value = Style(.text)
    static let key = Style(.accent, bold: true)
    static let selectedRow = Style(.selection)
    static let selectedText = Style(.selectionText, bold: true)
    static let newMark = Style(.accent, bold: true)
    static let panelTitle = Style(.title, bold: true)
    static let columnHeader = Style(.header, bold: true)
    static let input = Style(.input, underline: true)
    static let good = Style(.good)
    static let bad = Style(.bad, bold: true)
    static let disabled = Style(.dim)

    static func change(isGood: Bool?) -> Style {
        switch isGood {
        case true?: return Style(.good)
        case false?: return Style(.bad)
        case nil: return Style(.dim)
        }
    }
}

extension Canvas {
    /// Writes `text` so that it ends at column `right` (exclusive); returns where it starts.
    @discardableResult
    func text(_ text: String, rightAlignedTo right: Int, y: Int, style: Style, maxWidth: Int? = nil) -> Int {
        let width = min(DisplayWidth.of(text), maxWidth ?? Int.max)
        let x = right - width
        self.text(text, at: Point(x: x, y: y), style: style, maxWidth: width)
        return x
    }

    /// A table's selected row across `rect`'s width at `y`: filled and marked `›`, so it shows without colour too.
    func selectedRow(in rect: Rect, y: Int) {
        fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), character: " ", style: Styles.selectedRow)
        text("›", at: Point(x: rect.x + 1, y: y), style: Styles.selectedText)
    }

    /// A panel: a box with a title, its inside cleared; returns the inner rectangle.
    func panel(_ rect: Rect, title: String?) -> Rect {
        clear(rect, style: .text)
        box(rect, style: .border, title: title, titleStyle: Styles.panelTitle)
        return rect.inset(1)
    }
}
