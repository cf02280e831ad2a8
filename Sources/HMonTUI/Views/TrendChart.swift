import Terminal

/// A block chart of a series several rows tall (eighth-cell precision per column), newest at the right.
/// With more values than columns it keeps the newest; with fewer, each value takes several columns.
struct TrendChart {
    let values: [Double]

    func draw(on canvas: Canvas, in rect: Rect, style: Style = .graph) {
        guard rect.width > 0, rect.height > 0, let lowest = values.min(), let high = values.max() else { return }
        let columns = resample(to: rect.width)
        // The floor sits a little under the lowest value so that every day shows a bar.
        let span = max(high - lowest, 0.1) * 1.15
        let low = min(lowest, high - span)
        let levels = rect.height * 8
        for (x, value) in columns.enumerated() {
            let filled = max(1, Int(((value - low) / span * Double(levels - 1)).rounded()) + 1)
            for row in 0..<rect.height {
                let fromBottom = rect.height - 1 - row
                let eighths = min(8, max(0, filled - fromBottom * 8))
                guard eighths > 0 else { continue }
                let character = BlockCharacters.levels[eighths - 1]
                canvas.text(String(character), at: Point(x: rect.x + x, y: rect.y + row), style: style, maxWidth: 1)
            }
        }
    }

    /// The series stretched or cut to `width` columns.
    private func resample(to width: Int) -> [Double] {
        if values.count >= width { return Array(values.suffix(width)) }
        return (0..<width).map { values[min(values.count - 1, $0 * values.count / width)] }
    }
}
