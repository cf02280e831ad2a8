/// A scrolling table's view state, owned by its screen's view (ratatui's `ListState`): how many rows fit
/// and which row is at the top. `layout` updates it before each frame from the model's selection, so the
/// models never hear of page sizes and drawing changes nothing.
public struct TableState: Sendable, Equatable {
    /// Rows that fit in the table's area at the last layout.
    public private(set) var pageSize = 1
    /// The first row in view.
    public private(set) var offset = 0

    public init() {}

    /// Fits `pageSize` rows and scrolls as little as possible to keep `selected` in view.
    public mutating func layout(pageSize: Int, selected: Int, count: Int) {
        self.pageSize = max(1, pageSize)
        if selected < offset { offset = selected }
        if selected >= offset + self.pageSize { offset = selected - self.pageSize + 1 }
        offset = max(0, min(offset, max(count - self.pageSize, 0)))
    }
}
