/// The one way hmon turns a floating-point number into an integer.
///
/// A stored number can be anything a store ever accepted: a row older than today's ranges, another
/// engine's copy, a value planted through an API before a range existed. `Int(_:)` traps on NaN, on
/// infinities and on anything beyond the integer's bounds, and one trap ends `hmon serve` for everyone.
/// So every conversion rounds here, and what the integer cannot hold is held at its nearest bound
/// (NaN becomes 0): a wrong-looking figure on one screen, never a crash.
extension FixedWidthInteger {
    /// `value` rounded by `rule` (to nearest, halves away from zero, unless told), held within
    /// `Self.min...Self.max`; NaN gives 0.
    ///
    /// ```swift
    /// Int(rounding: 72.6)          // 73
    /// Int(rounding: 1e300)         // Int.max
    /// Int(rounding: 7.9, .down)    // 7
    /// UInt8(rounding: -3)          // 0
    /// ```
    @inlinable
    public init(rounding value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        let whole = value.rounded(rule)
        if let exact = Self(exactly: whole) {
            self = exact
        } else if whole.isNaN {
            self = 0
        } else {
            self = whole > 0 ? .max : .min
        }
    }
}
