/// Something views draw on: the ncurses screen (`CursesCanvas`) or an in-memory grid (`GridCanvas`)
/// that tests and `hmon snapshot` read back. All positions are in cells; everything is clipped to `size`.
/// Text is measured by display width: a wide character (CJK, most emoji) takes two cells.
public protocol Canvas: AnyObject {
    var size: Size { get }

    /// Fills the whole canvas with blanks in `style` (the theme's background for `.text`).
    func clear(_ style: Style)

    /// Writes `text` starting at `at`, at most `maxWidth` cells (default: to the right edge).
    /// Text that does not fit ends in "…". Returns the number of cells written.
    @discardableResult
    func text(_ text: String, at: Point, style: Style, maxWidth: Int?) -> Int

    /// Fills `rect` with `character` (a single-width character) in `style`.
    func fill(_ rect: Rect, character: Character, style: Style)

    /// A box drawn with line characters around the edge of `rect`, with an optional title in the top edge.
    func box(_ rect: Rect, style: Style, title: String?, titleStyle: Style)

    /// A horizontal line of `width` cells starting at `at`.
    func horizontalLine(at: Point, width: Int, style: Style)

    /// A vertical line of `height` cells starting at `at`.
    func verticalLine(at: Point, height: Int, style: Style)
}

extension Canvas {
    @discardableResult
    public func text(_ text: String, at: Point, style: Style = .text) -> Int {
        self.text(text, at: at, style: style, maxWidth: nil)
    }

    public func box(_ rect: Rect, style: Style = .border, title: String? = nil) {
        box(rect, style: style, title: title, titleStyle: .title)
    }
}
