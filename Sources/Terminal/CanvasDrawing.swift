import CheckedNumbers

/// Drawing built from the `Canvas` primitives, the same on every canvas.
extension Canvas {
    /// A horizontal bar `width` cells wide, filled to `fraction` (clamped to 0...1) with eighth-cell precision
    /// (█ and ▏▎▍▌▋▊▉); the unfilled track is drawn as "░" in `trackStyle`.
    public func bar(at origin: Point, width: Int, fraction: Double, style: Style = .accent, trackStyle: Style = .dim) {
        guard width > 0 else { return }
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let eighths = Int(rounding: clamped * Double(width * 8))
        let full = eighths / 8, partial = eighths % 8
        var line = String(repeating: "█", count: full)
        if partial > 0 { line.append(BlockCharacters.leftEighths[partial - 1]) }
        let filled = full + (partial > 0 ? 1 : 0)
        if filled > 0 { text(line, at: origin, style: style, maxWidth: width) }
        if filled < width {
            fill(Rect(x: origin.x + filled, y: origin.y, width: width - filled, height: 1), character: "░", style: trackStyle)
        }
    }

    /// A one-row sparkline of the last `width` values with block characters ▁▂▃▄▅▆▇█, scaled to `range`
    /// (default: the lowest to the highest value shown). A `nil` value is a gap; a flat series sits mid-height.
    public func sparkline(_ values: [Double?], at origin: Point, width: Int, style: Style = .graph,
                          range: ClosedRange<Double>? = nil) {
        guard width > 0 else { return }
        let shown = values.suffix(width)
        let present = shown.compactMap { $0 }.filter(\.isFinite)
        guard let low = range?.lowerBound ?? present.min(), let high = range?.upperBound ?? present.max() else {
            fill(Rect(x: origin.x, y: origin.y, width: min(width, shown.count), height: 1), character: " ", style: style)
            return
        }
        let levels = BlockCharacters.levels
        var line = ""
        for value in shown {
            guard let value, value.isFinite else { line.append(" "); continue }
            if high <= low { line.append(levels[levels.count / 2 - 1]); continue }
            let position = (min(high, max(low, value)) - low) / (high - low)
            line.append(levels[Int(rounding: position * Double(levels.count - 1))])
        }
        text(line, at: origin, style: style, maxWidth: width)
    }

    /// `text` centred horizontally on row `y` of `rect` (cut with "…" when wider than the rectangle).
    @discardableResult
    public func text(_ text: String, centredIn rect: Rect, row y: Int, style: Style = .text) -> Int {
        let width = min(DisplayWidth.of(text), rect.width)
        let x = rect.x + (rect.width - width) / 2
        return self.text(text, at: Point(x: x, y: y), style: style, maxWidth: rect.width)
    }

    /// Fills the whole of `rect` with blanks in `style`.
    public func clear(_ rect: Rect, style: Style = .text) {
        fill(rect, character: " ", style: style)
    }
}

/// The block characters sparklines and bars are made of.
public enum BlockCharacters {
    /// Eight heights, lowest first.
    public static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Left-aligned partial blocks, one to seven eighths wide.
    public static let leftEighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
}
