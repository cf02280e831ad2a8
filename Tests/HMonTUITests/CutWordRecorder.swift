@testable import HMonTUI
import Terminal

/// A canvas that draws on a grid as the terminal would and notes every text whose cut breaks a word: the
/// cell before the "…" and the character the cut dropped are both letters or digits ("kca…" of "kcal").
/// A cut between words ("the food…" of "the food log") is a shorter text, not a broken word, and is let be.
final class CutWordRecorder: Canvas {
    let grid: GridCanvas
    private(set) var brokenWords: [String] = []
    var size: Size { grid.size }

    init(size: Size) { grid = GridCanvas(size: size) }

    func clear(_ style: Style) { grid.clear(style) }

    func text(_ text: String, at: Point, style: Style, maxWidth: Int?) -> Int {
        note(text, at: at, maxWidth: maxWidth)
        return grid.text(text, at: at, style: style, maxWidth: maxWidth)
    }

    func fill(_ rect: Rect, character: Character, style: Style) { grid.fill(rect, character: character, style: style) }
    func box(_ rect: Rect, style: Style, title: String?, titleStyle: Style) {
        if let title, rect.width >= 7 { note(title, at: Point(x: rect.x + 3, y: rect.y), maxWidth: rect.width - 6) }
        grid.box(rect, style: style, title: title, titleStyle: titleStyle)
    }
    func horizontalLine(at: Point, width: Int, style: Style) { grid.horizontalLine(at: at, width: width, style: style) }
    func verticalLine(at: Point, height: Int, style: Style) { grid.verticalLine(at: at, height: height, style: style) }

    /// Cut as the canvas cuts (`DisplayWidth.kept`), and noted when the cut is still inside a word.
    private func note(_ text: String, at: Point, maxWidth: Int?) {
        guard at.y >= 0, at.y < size.height else { return }
        var limit = size.width - at.x
        if let maxWidth { limit = min(limit, maxWidth) }
        guard limit > 0, DisplayWidth.of(text) > limit else { return }
        let characters = Array(text).filter { DisplayWidth.of($0) > 0 }
        let kept = Array(DisplayWidth.kept(text, limit: limit))
        guard let last = kept.last, kept.count < characters.count else { return }
        let dropped = characters[kept.count]
        if (last.isLetter || last.isNumber) && (dropped.isLetter || dropped.isNumber) {
            brokenWords.append("\"\(String(kept))…\" of \"\(text)\"")
        }
    }
}
