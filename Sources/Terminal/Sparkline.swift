/// A series fitted to a one-line chart (`Canvas.sparkline`, which shows the last values that fit): for a
/// chart with no room, the whole span is shown by resampling it to the width, each cell the mean of the
/// values that fall in it.
public enum Sparkline {
    public static func resampled(_ values: [Double], to width: Int) -> [Double] {
        let finite = values.filter(\.isFinite)
        guard width > 0, !finite.isEmpty else { return [] }
        let cells = min(width, finite.count)
        return (0..<cells).map { cell in
            let from = cell * finite.count / cells, to = max(from + 1, (cell + 1) * finite.count / cells)
            return finite[from..<to].reduce(0, +) / Double(to - from)
        }
    }
}
