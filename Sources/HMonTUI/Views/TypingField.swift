import HealthViewModels
import Terminal

/// A text field in its box, with the text around the cursor in view: every form and prompt draws its
/// fields with it, so the cursor looks and scrolls the same everywhere. At the end the cursor is a bar after
/// the text; inside, the character under it is shown reversed.
struct TypingField {
    let field: TextField
    let focused: Bool

    /// Draws the field in `width` cells at `origin`; returns the cells the text took.
    @discardableResult
    func draw(on canvas: Canvas, at origin: Point, width: Int) -> Int {
        canvas.fill(Rect(x: origin.x, y: origin.y, width: width, height: 1), character: " ", style: Styles.input)
        guard focused else {
            return canvas.text(DisplayWidth.clip(field.displayText, to: width), at: origin, style: Styles.input, maxWidth: width)
        }
        let (shown, column) = DisplayWidth.typingWindow(field.displayText, cursor: field.cursor, in: width)
        let used = canvas.text(shown, at: origin, style: Styles.input, maxWidth: width)
        if field.isCursorAtEnd {
            if used < width { canvas.text("▏", at: Point(x: origin.x + column, y: origin.y), style: Style(.accent, bold: true, underline: true)) }
        } else if let under = Array(field.displayText).dropFirst(field.cursor).first {
            canvas.text(String(under), at: Point(x: origin.x + column, y: origin.y), style: Style(.accent, bold: true, reverse: true))
        }
        return used
    }
}
