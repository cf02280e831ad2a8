import Foundation

/// Apple Health HRV records with beat lists, written from known RR intervals so the figures can be
/// worked out by hand.
enum BeatListXML {
    enum Clock {
        /// `6:14:48.94 PM`: US English.
        case twelveHour
        /// `18:14:48,94`: a German phone.
        case twentyFourHourComma
        /// `18:14:48.945`: three decimals, for intervals to the ms.
        case twentyFourHourMs
    }

    /// An RR series whose figures are known by hand: 800 and 900 ms in turn, `count` intervals.
    /// Every successive difference is ±100 ms, so RMSSD = 100 ms and pNN50 = 100 %; the intervals
    /// are 850 ± 50 ms, so SDNN = 50 · √(n / (n − 1)) ms; the mean heart rate is (75 + 66.67) / 2 = 70.8 b/min.
    static func alternating(_ count: Int) -> [Double] { (0..<count).map { $0.isMultiple(of: 2) ? 800 : 900 } }

    /// A time of day as a phone in that locale writes it.
    static func time(_ secondsOfDay: Double, _ clock: Clock) -> String {
        let hundredths = Int((secondsOfDay * 1000).rounded())
        let ms = hundredths % 1000
        var seconds = hundredths / 1000 % 86_400
        let hour = seconds / 3600
        seconds %= 3600
        let clockTime = String(format: ":%02d:%02d", seconds / 60, seconds % 60)
        switch clock {
        case .twelveHour:
            let h12 = hour % 12 == 0 ? 12 : hour % 12
            return "\(h12)" + clockTime + String(format: ".%02d", ms / 10) + (hour < 12 ? " AM" : " PM")
        case .twentyFourHourComma:
            return String(format: "%02d", hour) + clockTime + String(format: ",%02d", ms / 10)
        case .twentyFourHourMs:
            return String(format: "%02d", hour) + clockTime + String(format: ".%03d", ms)
        }
    }

    /// The `<HeartRateVariabilityMetadataList>` of beats `rr` ms apart, the first at `firstBeat`
    /// (seconds since midnight; may run past midnight).
    static func list(rr: [Double], firstBeat: Double, _ clock: Clock) -> String {
        var at = firstBeat
        var lines = ["  <HeartRateVariabilityMetadataList>"]
        lines.append("   <InstantaneousBeatsPerMinute bpm=\"70\" time=\"\(time(at, clock))\"/>")
        for interval in rr {
            at += interval / 1000
            lines.append("   <InstantaneousBeatsPerMinute bpm=\"\(Int((60_000 / interval).rounded()))\" time=\"\(time(at, clock))\"/>")
        }
        lines.append("  </HeartRateVariabilityMetadataList>")
        return lines.joined(separator: "\n")
    }

    /// An HRV record from `start` to `end` (`2024-01-03 18:14:47 +0100`) holding `children`.
    static func record(sdnn: String = "48.2", start: String, end: String, source: String = "Apple Watch", children: String) -> String {
        """
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="\(source)" sourceVersion="10.1" \
        unit="ms" creationDate="\(end)" startDate="\(start)" endDate="\(end)" value="\(sdnn)">
        \(children)
         </Record>
        """
    }
}
