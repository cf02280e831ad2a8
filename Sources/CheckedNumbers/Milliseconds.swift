/// Seconds from outside (a Withings group's `date`, a payload's time) as milliseconds, without a trap.
///
/// `seconds * 1000` traps beyond ±9,223,372,036,854,775 s, and one trap ends `hmon serve` for everyone:
/// every conversion of an outside time to milliseconds goes through here and gets nil for what an
/// `Int64` of milliseconds cannot hold, which the caller refuses and reports.
extension Int64 {
    /// `seconds × 1000`, or nil when that does not fit an `Int64`.
    ///
    /// ```swift
    /// Int64(millisecondsFromSeconds: 1_763_622_000)              // 1_763_622_000_000
    /// Int64(millisecondsFromSeconds: 9_223_372_036_854_776)      // nil
    /// ```
    @inlinable
    public init?(millisecondsFromSeconds seconds: Int64) {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return nil }
        self = product
    }
}
