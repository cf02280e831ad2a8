import CheckedNumbers

/// A line chart in braille cells: scattered points (dots), a line through them (the trend), a dashed
/// level (a goal) and a band (a normal range), over a y-axis with labelled ticks on the left and x labels
/// along the bottom.
/// Numbers arrive already chosen and labelled by the caller (a view model): the chart only places them.
///
/// In monochrome the line and the points still read apart by shape: the line is unbroken from cell to
/// cell, the points stand alone, the level is dashed, and the band is edged by dotted lines (a dot in every
/// cell) with a sparse stipple between them (a dot in every other cell of every other row).
public struct LineChart {
    public struct Tick: Sendable, Equatable {
        public var value: Double
        public var label: String
        public init(value: Double, label: String) {
            self.value = value
            self.label = label
        }
    }

    public struct Point2: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public var xRange: ClosedRange<Double>
    public var yRange: ClosedRange<Double>
    public var points: [Point2]
    public var line: [Point2]
    public var level: Double?
    /// A range of y shaded behind everything else; nil for none.
    public var band: ClosedRange<Double>?
    public var yTicks: [Tick]
    public var xTicks: [Tick]
    /// A note at the right end of the x labels' row (a goal outside the axis); labels it would cover are left out.
    public var xNote: String?

    /// Points in the accent colour (bold in monochrome), the line plain in the graph colour: told apart by
    /// colour, and without colour by weight, since monochrome has nothing else to give.
    public var pointStyle = Style(.accent)
    public var lineStyle = Style(.graph)
    public var levelStyle = Style(.dim)
    public var bandStyle = Style(.dim)
    public var axisStyle = Style.border
    public var labelStyle = Style(.dim)

    public init(xRange: ClosedRange<Double>, yRange: ClosedRange<Double>, points: [Point2], line: [Point2],
                level: Double?, yTicks: [Tick], xTicks: [Tick]) {
        self.xRange = xRange
        self.yRange = yRange
        self.points = points
        self.line = line
        self.level = level
        self.yTicks = yTicks
        self.xTicks = xTicks
    }

    private enum Layer: Int { case band, level, points, line }

    /// Sets the y range and ticks to a `RowAlignedAxis` over `low…high` for a chart drawn `height` rows tall
    /// (the plot is one row less: the x labels), each label written by `label(value, decimals)`. Returns
    /// the axis, or nil (leaving the chart as it was) when the plot has fewer than two rows.
    @discardableResult
    public mutating func alignAxis(low: Double, high: Double, height: Int,
                                   label: (Double, Int) -> String) -> RowAlignedAxis? {
        guard let axis = RowAlignedAxis(low: low, high: high, rows: height - 1) else { return nil }
        yRange = axis.range
        yTicks = axis.ticks.map { Tick(value: $0, label: label($0, axis.decimals)) }
        return axis
    }

    public func draw(on canvas: Canvas, in rect: Rect) {
        let labelWidth = yTicks.map { DisplayWidth.of($0.label) }.max() ?? 0
        let plot = Rect(x: rect.x + labelWidth + 1, y: rect.y, width: rect.width - labelWidth - 1, height: rect.height - 1)
        guard plot.width > 1, plot.height > 0 else { return }
        var dots = BrailleDots(columns: plot.width, rows: plot.height)
        func dx(_ x: Double) -> Int { scale(x, xRange, to: dots.dotWidth - 1) }
        func dy(_ y: Double) -> Int { dots.dotHeight - 1 - scale(y, yRange, to: dots.dotHeight - 1) }

        if let band {
            let (top, bottom) = (dy(band.upperBound), dy(band.lowerBound))
            for x in stride(from: 0, to: dots.dotWidth, by: 2) {
                dots.set(x: x, y: top, layer: Layer.band.rawValue)
                dots.set(x: x, y: bottom, layer: Layer.band.rawValue)
            }
            // The stipple: the dot row in the middle of each cell row between the edges, every other cell.
            for y in stride(from: top + 1, to: bottom, by: 1) where y % 8 == 5 {
                for x in stride(from: (y / 8) % 2 * 2, to: dots.dotWidth, by: 4) { dots.set(x: x, y: y, layer: Layer.band.rawValue) }
            }
        }
        if let level {
            let y = dy(level)
            for x in 0..<dots.dotWidth where (x / 3) % 2 == 0 { dots.set(x: x, y: y, layer: Layer.level.rawValue) }
        }
        for p in points { dots.set(x: dx(p.x), y: dy(p.y), layer: Layer.points.rawValue) }
        for (a, b) in zip(line, line.dropFirst()) {
            dots.line(from: (dx(a.x), dy(a.y)), to: (dx(b.x), dy(b.y)), layer: Layer.line.rawValue)
        }
        if line.count == 1, let only = line.first { dots.set(x: dx(only.x), y: dy(only.y), layer: Layer.line.rawValue) }

        // The y-axis: a rule with a tick beside each label. Where two ticks fall in one row of cells (a short
        // chart), the row shows the one nearest its middle, so no label stands for a value the row misses.
        var tickRows: [Int: (label: String, offCentre: Int)] = [:]
        for tick in yTicks {
            let dot = dy(tick.value)
            let offCentre = abs(dot % 4 * 2 - 3)   // dots 0…3 of a cell; its middle lies between 1 and 2
            if let taken = tickRows[dot / 4], taken.offCentre <= offCentre { continue }
            tickRows[dot / 4] = (tick.label, offCentre)
        }
        for row in 0..<plot.height {
            let y = plot.y + row
            if let label = tickRows[row]?.label {
                let width = DisplayWidth.of(label)
                canvas.text(label, at: Point(x: plot.x - 1 - width, y: y), style: labelStyle, maxWidth: width)
                canvas.text("┤", at: Point(x: plot.x - 1, y: y), style: axisStyle, maxWidth: 1)
            } else {
                canvas.text("│", at: Point(x: plot.x - 1, y: y), style: axisStyle, maxWidth: 1)
            }
        }
        // The x labels under the plot, each starting at its tick; one that would overlap the last is left out.
        canvas.text("└", at: Point(x: plot.x - 1, y: plot.maxY), style: axisStyle, maxWidth: 1)
        var nextFree = plot.x
        var labelsEnd = plot.maxX
        if let xNote {
            let width = DisplayWidth.of(xNote)
            labelsEnd = max(plot.x, plot.maxX - width - 1)
            canvas.text(xNote, at: Point(x: max(plot.x, plot.maxX - width), y: plot.maxY), style: labelStyle, maxWidth: width)
        }
        for tick in xTicks {
            let width = DisplayWidth.of(tick.label)
            let x = min(plot.x + dx(tick.value) / 2, plot.maxX - width)
            guard x >= nextFree, x + width <= labelsEnd else { continue }
            canvas.text(tick.label, at: Point(x: x, y: plot.maxY), style: labelStyle, maxWidth: width)
            nextFree = x + width + 1
        }
        dots.draw(on: canvas, at: Point(x: plot.x, y: plot.y)) { layer in
            switch Layer(rawValue: layer) {
            case .line?: lineStyle
            case .points?: pointStyle
            case .band?: bandStyle
            default: levelStyle
            }
        }
    }

    /// `value`'s place in `range` as a whole number of steps out of `steps` (the middle for an empty range).
    private func scale(_ value: Double, _ range: ClosedRange<Double>, to steps: Int) -> Int {
        let span = range.upperBound - range.lowerBound
        guard span > 0, value.isFinite else { return steps / 2 }
        let fraction = min(1, max(0, (value - range.lowerBound) / span))
        return Int(rounding: fraction * Double(steps))
    }
}
