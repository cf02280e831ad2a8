/// A series in one line of block characters (▁▂▃▄▅▆▇█), for a chart with no room: the values are resampled
/// to the width (each cell the mean of the values that fall in it), and the lowest cell is the lowest block,
/// the highest the highest.
public enum Sparkline {
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public static func text(_ values: [Double], width: Int) -> String {
        let finite = values.filter(\.isFinite)
        guard width > 0, !finite.isEmpty else { return "" }
        let cells = min(width, finite.count)
        let means = (0..<cells).map { cell in
            let from = cell * finite.count / cells, to = max(from + 1, (cell + 1) * finite.count / cells)
            return finite[from..<to].reduce(0, +) / Double(to - from)
        }
        let low = means.min()!, high = means.max()!
        return String(means.map { mean in
            let level = high > low ? Int(((mean - low) / (high - low) * Double(levels.count - 1)).rounded()) : levels.count / 2
            return levels[min(max(level, 0), levels.count - 1)]
        })
    }
}
