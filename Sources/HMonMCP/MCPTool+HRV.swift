import Foundation
import HealthModel
import SAMIContract

extension MCPTool {
    /// The `hrv` view of `hmon serve`: the normal range now and the newest measurement rated against it.
    static let hrv = MCPTool(
        name: "hrv",
        description: """
            Heart rate variability: the person's normal RMSSD range now (from the 60 days before; none under 14 \
            measurements) and the newest measurement rated against the range before it: "green" (above), \
            "yellow" (inside), "red" (below) or "building" (too few before it). JSON as hmon serve's hrv view \
            gives it ({"baseline": {lowMs, highMs, measurements}, "latest": {ts (ms since 1970), rmssdMs, \
            rating}, "measurements": count in the last 60 days}), in milliseconds.
            """,
        arguments: ArgumentSchema(),
        answer: { _, reader in
            let view = try await HMonViews.HRVView.read(from: reader.service, now: reader.now())
            var words: [String] = []
            if let latest = view.latest {
                let when = Day(Date(millisecondsSince1970: latest.ts), in: reader.calendar)
                words.append("latest RMSSD \(String(format: "%.1f", latest.rmssdMs)) ms on \(when): \(latest.rating)")
            } else {
                words.append("no HRV measurement yet")
            }
            if let baseline = view.baseline {
                words.append("normal range \(String(format: "%.1f", baseline.lowMs))–\(String(format: "%.1f", baseline.highMs)) ms "
                             + "from \(baseline.measurements) measurements")
            }
            return MCPAnswer(json: try ViewJSON.data(view), text: words.joined(separator: "; "))
        })
}
