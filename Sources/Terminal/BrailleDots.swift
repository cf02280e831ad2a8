/// A grid of braille dots over a block of cells: each cell is a U+2800 braille character holding
/// 2 × 4 dots, so a chart gets twice the columns and four times the rows of the cells it covers.
/// Dots are set in layers; a cell takes the style of its highest layer that set a dot in it.
public struct BrailleDots {
    public let columns: Int
    public let rows: Int
    public var dotWidth: Int { columns * 2 }
    public var dotHeight: Int { rows * 4 }
    private var bits: [UInt8]
    private var layer: [Int]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        bits = Array(repeating: 0, count: self.columns * self.rows)
        layer = Array(repeating: -1, count: self.columns * self.rows)
    }

    /// The bit of each dot in a braille cell (ISO/TR 11548-1): dots 1–3 and 7 down the left column,
    /// 4–6 and 8 down the right.
    private static let dotBits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// Sets the dot at (`x`, `y`), counted from the top left; dots outside the grid are ignored.
    public mutating func set(x: Int, y: Int, layer level: Int) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        let index = (y / 4) * columns + x / 2
        bits[index] |= Self.dotBits[x % 2][y % 4]
        layer[index] = max(layer[index], level)
    }

    /// A straight line of dots from one dot to another (Bresenham), so a line has no holes.
    public mutating func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), layer level: Int) {
        var x = a.x, y = a.y
        let dx = abs(b.x - a.x), dy = -abs(b.y - a.y)
        let sx = a.x < b.x ? 1 : -1, sy = a.y < b.y ? 1 : -1
        var error = dx + dy
        while true {
            set(x: x, y: y, layer: level)
            if x == b.x && y == b.y { break }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
        }
    }

    /// The braille character of a cell, nil when it has no dot.
    public func character(column: Int, row: Int) -> Character? {
        let value = bits[row * columns + column]
        guard value != 0, let scalar = Unicode.Scalar(0x2800 + UInt32(value)) else { return nil }
        return Character(scalar)
    }

    /// The highest layer that set a dot in a cell (-1 for none).
    public func layer(column: Int, row: Int) -> Int { layer[row * columns + column] }

    /// Draws every cell that has a dot at `origin`, in the style `styles` gives its layer.
    public func draw(on canvas: Canvas, at origin: Point, styles: (Int) -> Style) {
        for row in 0..<rows {
            for column in 0..<columns {
                guard let character = character(column: column, row: row) else { continue }
                canvas.text(String(character), at: Point(x: origin.x + column, y: origin.y + row),
                            style: styles(layer(column: column, row: row)), maxWidth: 1)
            }
        }
    }
}
