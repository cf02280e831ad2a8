/// A scrolling table's view state, owned by its screen's view (ratatui's `ListState`): how many rows fit
/// and which row is at the top. `layout` updates it before each frame from the model's selection, so the
/// models never hear of page sizes and drawing changes nothing.
public struct TableState: Sendable, Equatable {
    /// Rows that fit in the table's area at the last layout.
    public private(set) var pageSize = 1
    /// The first row in view.
    public private(set) var offset = 0

    public init() {}

    /// The screen row of the first row in view, when the screen told `layout` (for clicks).
    public private(set) var firstRowY: Int?
    /// Rows in the table at the last layout.
    public private(set) var count = 0

    /// Fits `pageSize` rows and scrolls as little as possible to keep `selected` in view.
    public mutating func layout(pageSize: Int, selected: Int, count: Int, firstRowY: Int? = nil) {
        self.firstRowY = firstRowY
        self.count = count
        self.pageSize = max(1, pageSize)
        if selected < offset { offset = selected }
        if selected >= offset + self.pageSize { offset = selected - self.pageSize + 1 }
        offset = max(0, min(offset, max(count - self.pageSize, 0)))
    }

    /// Ctrl-D and Ctrl-U's step, as in less and vi: half the rows in view, at least one.
    public var halfPage: Int { max(1, pageSize / 2) }

    /// The index of the row drawn at screen row `y`, if a row is there.
    public func row(atY y: Int) -> Int? {
        guard let firstRowY, y >= firstRowY, y < firstRowY + pageSize else { return nil }
        let index = offset + (y - firstRowY)
        return index < count ? index : nil
    }
}
