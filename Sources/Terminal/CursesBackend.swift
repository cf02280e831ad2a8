import CNcurses

/// Puts frames on the ncurses screen (ratatui's backend): every frame is drawn into a `GridCanvas` first,
/// and `flush` writes only the cells that differ from the frame it wrote last, then updates the terminal
/// once. A frame equal to the last one writes nothing at all, so an idle tick costs no output.
/// It belongs to the main actor, like every ncurses call.
@MainActor
public final class CursesBackend {
    /// The ncurses window drawn on (`stdscr` for the screen).
    let window: UnsafeMutablePointer<WINDOW>
    public private(set) var palette: Palette
    /// What the terminal shows since the last flush; nil when it must be written whole (first frame,
    /// new size, new palette).
    private var shown: (size: Size, cells: [Cell])?

    init(window: UnsafeMutablePointer<WINDOW>, palette: Palette) {
        self.window = window
        self.palette = palette
    }

    /// The window's size in cells.
    public var size: Size { Size(width: Int(hm_getmaxx(window)), height: Int(hm_getmaxy(window))) }

    func setPalette(_ palette: Palette) {
        self.palette = palette
        invalidate()
    }

    /// The next flush writes every cell (after a resize or a theme change, or when the screen was disturbed).
    public func invalidate() { shown = nil }

    /// Writes the cells of `frame` that changed since the last flush into the window and returns how many
    /// it wrote (0: nothing changed, and the terminal is not touched).
    @discardableResult
    public func flush(_ frame: GridCanvas) -> Int {
        let size = frame.size
        let previous = shown.flatMap { $0.size == size && size == self.size ? $0.cells : nil }
        if previous == nil { werase(window) }
        var written = 0
        for y in 0..<size.height {
            var x = 0
            while x < size.width {
                guard let start = nextChange(in: frame, previous: previous, row: y, from: x) else { break }
                let end = spanEnd(in: frame, previous: previous, row: y, from: start)
                written += writeSpan(frame, row: y, from: start, to: end, previous: previous)
                x = end
            }
        }
        shown = (size, frame.cells)
        if written > 0 {
            wnoutrefresh(window)
            doupdate()
        }
        return written
    }

    /// The first cell at or after `x` that differs from what is shown.
    private func nextChange(in frame: GridCanvas, previous: [Cell]?, row y: Int, from x: Int) -> Int? {
        let width = frame.size.width
        guard let previous else { return x < width ? x : nil }
        var x = x
        while x < width {
            let i = y * width + x
            if frame.cells[i] != previous[i] { return x }
            x += 1
        }
        return nil
    }

    /// Where a run of changes starting at `start` ends (exclusive): at the first unchanged cell that is
    /// not the right half of a wide character, old or new.
    private func spanEnd(in frame: GridCanvas, previous: [Cell]?, row y: Int, from start: Int) -> Int {
        let width = frame.size.width
        guard let previous else { return width }
        var x = start
        while x < width {
            let i = y * width + x
            let changed = frame.cells[i] != previous[i]
            if !changed && frame.cells[i].width != 0 && previous[i].width != 0 { break }
            x += 1
        }
        return x
    }

    /// Writes cells `start..<end` of row `y`. A run that begins on the right half of a wide character, or
    /// overwrites a wide character, is widened and blanked first: ncurses leaves the other half of a wide
    /// character in place when one half is overwritten, and the terminal would show half a glyph.
    private func writeSpan(_ frame: GridCanvas, row y: Int, from start: Int, to end: Int, previous: [Cell]?) -> Int {
        let width = frame.size.width
        var from = start
        while from > 0 && (frame.cells[y * width + from].width == 0 || previous?[y * width + from].width == 0) { from -= 1 }
        if let previous, previous[(y * width + from)..<(y * width + end)].contains(where: { $0.width != 1 }) {
            for x in from..<end { write(" ", x: x, y: y, style: frame.cells[y * width + x].style) }
        }
        var count = 0
        for x in from..<end {
            let cell = frame.cells[y * width + x]
            guard cell.width != 0 else { continue }   // the left half wrote it
            write(cell.character, x: x, y: y, style: cell.style)
            count += cell.width
        }
        return count
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
