import HealthViewModels
import Terminal

/// The overview: a line per figure (its name, its figure now, a word on it) and to its right the last 30
/// days as a sparkline, every sparkline on the same days, with the axis' first and last day under them.
/// A figure is never cut: its column is as wide as the widest one. On a narrow terminal the words give way
/// first, then the sparklines shorten to their latest days.
@MainActor
struct OverviewView {
    let model: OverviewModel
    /// The chosen line, whose name is drawn as selected.
    var selected: Int? = nil

    static let labelWidth = 11
    /// The figure and word columns' least widths (a space after each included); a longer text widens its column.
    static let figureWidth = 15
    static let detailWidth = 20

    func draw(on canvas: Canvas, in area: Rect) {
        let inner = canvas.panel(area, title: model.period.isEmpty ? "Overview" : "Overview · " + model.period)
        let x = inner.x + 1, width = inner.width - 2
        guard model.hasLoaded else {
            let text = model.problem.map { "Overview unavailable: \($0)" } ?? "loading…"
            canvas.text(text, at: Point(x: x, y: inner.y), style: .dim, maxWidth: width)
            return
        }
        let days = OverviewModel.days
        let columns = Self.columns(for: model.rows, width: width, days: days)
        let figureWidth = columns.figure, detailWidth = columns.detail, withDetail = columns.withDetail
        let sparkX = x + columns.sparkOffset
        let sparkWidth = columns.sparkWidth
        let (first, step) = Self.lines(count: model.rows.count, in: inner)
        var y = first
        for (index, row) in model.rows.enumerated() {
            guard y < inner.maxY - 1 else { break }
            if index == selected {
                canvas.fill(Rect(x: x, y: y, width: Self.labelWidth - 1, height: 1), character: " ", style: Styles.selectedRow)
                canvas.text(row.label, at: Point(x: x, y: y), style: Styles.selectedText, maxWidth: Self.labelWidth - 1)
            } else {
                canvas.text(row.label, at: Point(x: x, y: y), style: Styles.label, maxWidth: Self.labelWidth - 1)
            }
            canvas.text(row.figure, at: Point(x: x + Self.labelWidth, y: y), style: Style(.text, bold: true),
                        maxWidth: figureWidth - 1)
            if withDetail || row.isEmpty {
                let room = row.isEmpty ? x + width - (x + Self.labelWidth + figureWidth) : detailWidth - 1
                canvas.text(row.detail, at: Point(x: x + Self.labelWidth + figureWidth, y: y), style: Styles.label, maxWidth: room)
            }
            if !row.isEmpty, sparkWidth > 0 {
                canvas.sparkline(row.values, at: Point(x: sparkX, y: y), width: sparkWidth)
            }
            y += step
        }
        // The shared axis: the first day shown and today, under the sparklines.
        if sparkWidth >= 14, y < inner.maxY {
            let shownFirst = sparkWidth < days ? "" : model.firstDay
            canvas.text(shownFirst, at: Point(x: sparkX, y: y), style: Styles.label)
            canvas.text(model.lastDay, rightAlignedTo: sparkX + sparkWidth, y: y, style: Styles.label)
        }
    }

    /// The first line's row and the rows from one line to the next: a blank row between lines when there is room.
    static func lines(count: Int, in inner: Rect) -> (first: Int, step: Int) {
        let step = inner.height >= count * 2 + 2 ? 2 : 1
        return (inner.y + (step == 2 ? 1 : 0), step)
    }

    /// The line drawn at row `y` of `area` (as `draw` lays the lines out), if any.
    func line(atY y: Int, in area: Rect) -> Int? {
        guard model.hasLoaded else { return nil }
        let inner = area.inset(1)  // inside the panel's border, as `panel` returns it
        let (first, step) = Self.lines(count: model.rows.count, in: inner)
        guard y >= first, (y - first) % step == 0, y < inner.maxY - 1 else { return nil }
        let index = (y - first) / step
        return model.rows.indices.contains(index) ? index : nil
    }

    /// Where the columns of `rows` go in `width` cells, for sparklines of `days` days.
    struct Columns: Equatable {
        /// The figure and word columns' widths, each with its space after.
        var figure: Int
        var detail: Int
        var withDetail: Bool
        /// Where the sparklines start, from the left of the text, and how many days they show.
        var sparkOffset: Int
        var sparkWidth: Int
    }

    static func columns(for rows: [OverviewRow], width: Int, days: Int) -> Columns {
        let shown = rows.filter { !$0.isEmpty }
        let figure = max(figureWidth, (shown.map { DisplayWidth.of($0.figure) }.max() ?? 0) + 1)
        // The words widen their column only as far as the sparklines keep all their days.
        let detailRoom = width - labelWidth - figure - days
        let detail = max(detailWidth, min((shown.map { DisplayWidth.of($0.detail) }.max() ?? 0) + 1, detailRoom))
        // The words go first when the sparklines would get fewer than two weeks.
        let withDetail = width - labelWidth - figure - detail >= 14
        let sparkOffset = labelWidth + figure + (withDetail ? detail : 0)
        return Columns(figure: figure, detail: detail, withDetail: withDetail, sparkOffset: sparkOffset,
                       sparkWidth: max(0, min(days, width - sparkOffset)))
    }
}
