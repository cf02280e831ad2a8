import HealthViewModels
import Terminal

/// The overview: a line per figure (its name, its figure now, a word on it) and to its right the last 30
/// days as a sparkline, every sparkline on the same days, with the axis' first and last day under them.
/// On a narrow terminal the words give way first, then the sparklines shorten to their latest days.
@MainActor
struct OverviewView {
    let model: OverviewModel

    static let labelWidth = 11
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
        // The words go first when the sparklines would get fewer than two weeks.
        let withDetail = width - Self.labelWidth - Self.figureWidth - Self.detailWidth >= 14
        let sparkX = x + Self.labelWidth + Self.figureWidth + (withDetail ? Self.detailWidth : 0)
        let sparkWidth = max(0, min(days, x + width - sparkX))
        let step = inner.height >= model.rows.count * 2 + 2 ? 2 : 1
        var y = inner.y + (step == 2 ? 1 : 0)
        for row in model.rows {
            guard y < inner.maxY - 1 else { break }
            canvas.text(row.label, at: Point(x: x, y: y), style: Styles.label, maxWidth: Self.labelWidth - 1)
            canvas.text(row.figure, at: Point(x: x + Self.labelWidth, y: y), style: Style(.text, bold: true),
                        maxWidth: Self.figureWidth - 1)
            if withDetail || row.isEmpty {
                let room = row.isEmpty ? x + width - (x + Self.labelWidth + Self.figureWidth) : Self.detailWidth - 1
                canvas.text(row.detail, at: Point(x: x + Self.labelWidth + Self.figureWidth, y: y), style: Styles.label, maxWidth: room)
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
}
