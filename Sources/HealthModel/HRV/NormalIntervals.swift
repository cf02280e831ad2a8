import Foundation

/// Beat-to-beat (RR) intervals with the artefacts and ectopic beats taken out: the normal-to-normal
/// (NN) intervals every HRV figure is computed from.
public struct NormalIntervals: Sendable, Equatable {
    /// The intervals in ms, as many as were given: each removed one is replaced by linear interpolation
    /// between its accepted neighbours, so the beats keep their timing for the spectrum (as Kubios and
    /// hrv-analysis do).
    public let milliseconds: [Double]
    /// How many intervals were removed (and replaced).
    public let removed: Int

    /// Plausible intervals: 300 ms is 200 b/min, 2000 ms is 30 b/min.
    public static let plausibleMs = 300.0...2000.0
    /// Malik's rule: a normal interval differs by at most 20 % from the one before it.
    public static let malikFraction = 0.2

    /// Cleans `rr` (ms) by Malik's rule (Malik et al., 1989): an interval outside 300–2000 ms, or one
    /// differing by more than 20 % from the last *accepted* interval, is removed. Comparing with the last
    /// accepted one (not the previous raw one) also removes the compensatory pause after a premature beat.
    /// Limit: if the first interval is itself an artefact, it is the reference, so start with a clean beat.
    public static func malik(_ rr: [Double]) -> NormalIntervals {
        var kept: [Double?] = []
        kept.reserveCapacity(rr.count)
        var last: Double?
        for interval in rr {
            let normal = plausibleMs.contains(interval) && last.map { abs(interval - $0) <= malikFraction * $0 } ?? true
            kept.append(normal ? interval : nil)
            if normal { last = interval }
        }
        let removed = kept.count(where: { $0 == nil })
        return NormalIntervals(milliseconds: interpolated(kept), removed: removed)
    }

    /// Fills each gap by linear interpolation over the index between the accepted intervals on either
    /// side; a gap at the start or the end takes the nearest accepted interval.
    static func interpolated(_ values: [Double?]) -> [Double] {
        let known = values.indices.filter { values[$0] != nil }
        guard let first = known.first, let lastKnown = known.last else { return [] }
        var result = values.map { $0 ?? 0 }
        for i in 0..<first { result[i] = result[first] }
        for i in (lastKnown + 1)..<values.count { result[i] = result[lastKnown] }
        for (a, b) in zip(known, known.dropFirst()) where b > a + 1 {
            let (va, vb) = (result[a], result[b])
            for i in (a + 1)..<b { result[i] = va + (vb - va) * Double(i - a) / Double(b - a) }
        }
        return result
    }
}
