import CNcurses

/// The ncurses screen as a `Canvas`. Drawing goes to the window's buffer (the virtual screen);
/// `Screen.present()` flushes a whole frame at once, so the terminal never shows half a frame.
/// Layout is the same code as `GridCanvas` (`CellCanvas`), so both draw identical cells.
/// It belongs to the main actor, like every ncurses call.
@MainActor
public final class CursesCanvas: @MainActor Canvas {
    /// The ncurses window drawn on (`stdscr` for the screen).
    let window: UnsafeMutablePointer<WINDOW>
    public private(set) var palette: Palette
    /// What the window shows, cell by cell, kept by the same code as `GridCanvas`. ncurses leaves the
    /// other half of a wide character in place when one half is overwritten; the mirror says which
    /// neighbour to blank, so the screen matches the grid. It also lets `snapshot()` read the screen as text.
    private var mirror: GridCanvas

    init(window: UnsafeMutablePointer<WINDOW>, palette: Palette) {
        self.window = window
        self.palette = palette
        self.mirror = GridCanvas(width: Int(hm_getmaxx(window)), height: Int(hm_getmaxy(window)))
    }

    /// What is drawn now, as an in-memory grid (after a resize: blank until redrawn).
    public func snapshot() -> GridCanvas {
        syncMirrorSize()
        return mirror
    }

    private func syncMirrorSize() {
        if mirror.size != size { mirror = GridCanvas(size: size) }
    }

    func setPalette(_ palette: Palette) { self.palette = palette }

    public var size: Size { Size(width: Int(hm_getmaxx(window)), height: Int(hm_getmaxy(window))) }

    public func clear(_ style: Style) {
        layoutFill(Rect(size), character: " ", style: style)
    }

    @discardableResult
    public func text(_ text: String, at: Point, style: Style, maxWidth: Int?) -> Int {
        layoutText(text, at: at, style: style, maxWidth: maxWidth)
    }

    public func fill(_ rect: Rect, character: Character, style: Style) {
        layoutFill(rect, character: character, style: style)
    }

    public func box(_ rect: Rect, style: Style, title: String?, titleStyle: Style) {
        layoutBox(rect, style: style, title: title, titleStyle: titleStyle)
    }

    public func horizontalLine(at: Point, width: Int, style: Style) {
        layoutHorizontalLine(at: at, width: width, style: style)
    }

    public func verticalLine(at: Point, height: Int, style: Style) {
        layoutVerticalLine(at: at, height: height, style: style)
    }

    /// What ncurses holds for one cell of the window (read with `mvwin_wch`/`getcchar`): its characters,
    /// colour pair and attribute bits (without the pair). For tests and diagnostics; nil outside the window.
    public func readCell(at point: Point) -> (text: String, pair: Int16, attributes: UInt32)? {
        guard point.x >= 0, point.y >= 0, point.x < size.width, point.y < size.height else { return nil }
        var buffer = [wchar_t](repeating: 0, count: 8)
        var attributes: attr_t = 0
        var pair: Int16 = 0
        guard hm_mvwin_wch_read(window, Int32(point.y), Int32(point.x), &buffer, Int32(buffer.count),
                                &attributes, &pair) == OK else { return nil }
        let text = String(String.UnicodeScalarView(buffer.prefix { $0 != 0 }.compactMap { Unicode.Scalar(UInt32($0)) }))
        return (text, pair, UInt32(attributes) & ~UInt32(hm_A_COLOR()))
    }
}

extension CursesCanvas: @MainActor CellCanvas {
    func put(_ cluster: Character, width: Int, x: Int, y: Int, style: Style) {
        syncMirrorSize()
        let size = mirror.size
        guard x >= 0, y >= 0, y < size.height, x < size.width else { return }
        guard x + width <= size.width else {
            // As in GridCanvas: a wide character hanging over the right edge shows as a blank.
            put(" ", width: 1, x: x, y: y, style: style)
            return
        }
        let left = mirror.cell(at: Point(x: x - 1, y: y)), right = mirror.cell(at: Point(x: x + width, y: y))
        mirror.put(cluster, width: width, x: x, y: y, style: style)
        if let left, left.width == 2 { write(" ", x: x - 1, y: y, style: left.style) }
        if let right, right.width == 0 { write(" ", x: x + width, y: y, style: right.style) }
        write(cluster, x: x, y: y, style: style)
    }

    private func write(_ cluster: Character, x: Int, y: Int, style: Style) {
        // ncurses takes one spacing character plus up to four combining ones per cell (CCHARW_MAX = 5).
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: 6) { characters in
            var count = 0
            for scalar in cluster.unicodeScalars {
                if count > 0 && (DisplayWidth.of(scalar) != 0 || count == 5) { break }
                characters[count] = wchar_t(bitPattern: scalar.value)
                count += 1
            }
            characters[count] = 0
            _ = hm_mvwadd_wch_attr(window, Int32(y), Int32(x), characters.baseAddress, palette.attributes(for: style),
                                   palette.pairNumber(for: style.role))
        }
    }
}
