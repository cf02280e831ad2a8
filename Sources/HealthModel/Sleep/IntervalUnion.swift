import Foundation

/// The length of a union of time intervals: a minute two intervals both cover counts once.
public enum IntervalUnion {
    /// Milliseconds covered by at least one of `intervals` (start, end in ms; an empty or reversed one
    /// covers nothing). Sorted by start and swept once, as intervals are merged in any interval union.
    public static func coveredMs(_ intervals: [(start: Int64, end: Int64)]) -> Int64 {
        let sorted = intervals.filter { $0.end > $0.start }.sorted { $0.start < $1.start }
        var total: Int64 = 0
        var current: (start: Int64, end: Int64)?
        for interval in sorted {
            if let open = current, interval.start <= open.end {
                current = (open.start, max(open.end, interval.end))
            } else {
                if let open = current { total += open.end - open.start }
                current = interval
            }
        }
        if let open = current { total += open.end - open.start }
        return total
    }
}
