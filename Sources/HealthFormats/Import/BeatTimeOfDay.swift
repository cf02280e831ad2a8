import HealthModel
/// A beat's `time` in an Apple Health beat list: a time of day only, written in the phone's locale —
/// `6:14:48.94 PM`, `06:14:48.94 p.m.`, `18:14:48,94` — with no date and no time zone.
enum BeatTimeOfDay {
    /// Seconds since midnight; nil for a time hmon cannot read. Twelve-hour times (1–12, or 0 before noon)
    /// take `AM`/`PM` in any case, with or without dots, after an optional space (an ordinary, no-break or
    /// narrow no-break space, which newer iOS writes); the seconds' fraction may follow a dot or a comma.
    static func seconds(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = b.count
        var i = 0
        /// One or two digits (the hour), or exactly two (minutes, seconds).
        func number(minDigits: Int) -> Int? {
            let start = i
            var value = 0
            while i < n, i - start < 2, b[i] >= 0x30, b[i] <= 0x39 {
                value = value * 10 + Int(b[i] - 0x30)
                i += 1
            }
            return i - start >= minDigits ? value : nil
        }
        func colon() -> Bool {
            guard i < n, b[i] == UInt8(ascii: ":") else { return false }
            i += 1
            return true
        }
        guard let hour = number(minDigits: 1), colon(), let minute = number(minDigits: 2), colon(),
              let second = number(minDigits: 2), minute < 60, second < 60 else { return nil }
        var fraction = 0.0
        if i < n, b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") {
            i += 1
            var digits = 0, scale = 1
            let start = i
            while i < n, b[i] >= 0x30, b[i] <= 0x39 {
                // Beyond a µs the digits say nothing a beat time could mean; they are read and dropped.
                if i - start < 6 { digits = digits * 10 + Int(b[i] - 0x30); scale *= 10 }
                i += 1
            }
            guard i > start else { return nil }
            fraction = Double(digits) / Double(scale)
        }
        skipSpaces(b, &i)
        let meridiem: Meridiem?
        if i == n {
            meridiem = nil
        } else {
            guard let found = Meridiem.read(b, &i) else { return nil }
            skipSpaces(b, &i)
            guard i == n else { return nil }
            meridiem = found
        }
        let hour24: Int
        switch meridiem {
        case nil:
            guard hour < 24 else { return nil }
            hour24 = hour
        case .am?:
            // "0:14:48 AM" is written too (a 0–11 clock with AM/PM); it can only mean after midnight.
            guard (0...12).contains(hour) else { return nil }
            hour24 = hour == 12 ? 0 : hour
        case .pm?:
            guard (1...12).contains(hour) else { return nil }
            hour24 = hour == 12 ? 12 : hour + 12
        }
        return Double(hour24 * 3600 + minute * 60 + second) + fraction
    }

    private enum Meridiem {
        case am, pm

        /// `AM`, `am`, `a.m.`, `A.M.` and the same for PM.
        static func read(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Meridiem? {
            guard i < b.count else { return nil }
            let found: Meridiem
            switch b[i] | 0x20 {
            case UInt8(ascii: "a"): found = .am
            case UInt8(ascii: "p"): found = .pm
            default: return nil
            }
            i += 1
            if i < b.count, b[i] == UInt8(ascii: ".") { i += 1 }
            guard i < b.count, b[i] | 0x20 == UInt8(ascii: "m") else { return nil }
            i += 1
            if i < b.count, b[i] == UInt8(ascii: ".") { i += 1 }
            return found
        }
    }

    /// Skips ASCII spaces, U+00A0 (no-break space) and U+202F (narrow no-break space).
    private static func skipSpaces(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < b.count {
            if b[i] == 0x20 {
                i += 1
            } else if b[i] == 0xC2, i + 1 < b.count, b[i + 1] == 0xA0 {
                i += 2
            } else if b[i] == 0xE2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xAF {
                i += 3
            } else {
                return
            }
        }
    }
}
