/// A terminal size in cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
    public var description: String { "\(width)×\(height)" }
    public func fits(_ minimum: Size) -> Bool { width >= minimum.width && height >= minimum.height }
}

/// A cell position: column `x`, row `y`, from the top left (0, 0).
public struct Point: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }
}

/// A rectangle of cells.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = max(0, width); self.height = max(0, height)
    }
    public init(_ size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// The rectangle shrunk by `n` cells on every side.
    public func inset(_ n: Int) -> Rect { Rect(x: x + n, y: y + n, width: width - 2 * n, height: height - 2 * n) }
    public func inset(dx: Int, dy: Int) -> Rect { Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy) }
}
