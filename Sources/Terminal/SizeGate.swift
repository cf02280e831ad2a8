/// The smallest terminal a view can be drawn in, and what to show instead when the terminal is smaller.
public struct SizeGate: Sendable, Equatable {
    public var minimum: Size

    public init(minimum: Size = Size(width: 60, height: 16)) {
        self.minimum = minimum
    }

    public func allows(_ size: Size) -> Bool { size.fits(minimum) }

    /// "Terminal too small: have 52×14, need 60×16".
    public func message(for size: Size) -> String {
        "Terminal too small: have \(size), need \(minimum)"
    }

    /// When `canvas` is too small, clears it and draws the message centred (on two lines if it must)
    /// with a hint below, and returns false; otherwise draws nothing and returns true.
    @discardableResult
    public func check(_ canvas: some Canvas) -> Bool {
        guard !allows(canvas.size) else { return true }
        drawTooSmall(on: canvas)
        return false
    }

    /// Draws the "too small" notice on `canvas`, whatever its size.
    public func drawTooSmall(on canvas: some Canvas) {
        let area = Rect(canvas.size)
        canvas.clear(.text)
        let oneLine = message(for: canvas.size)
        let lines: [(String, Style)] = DisplayWidth.of(oneLine) <= area.width
            ? [(oneLine, .bad), ("enlarge the window, or press q to quit", .dim)]
            : [("Terminal too small", .bad), ("have \(canvas.size), need \(minimum)", .text), ("q quits", .dim)]
        let top = max(0, (area.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < area.height {
            canvas.text(line.0, centredIn: area, row: top + offset, style: line.1)
        }
    }
}
