import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// The one place numbers, dates and units become text, so every screen writes them the same way.
struct Formats {
    let calendar: Calendar

    /// "Nov 20, 2026 07:30" (day zero-padded, "Nov 09", so dates in a column line up), local time.
    func dateTime(_ date: Date) -> String {
        let c = DateText.parts(of: date, in: calendar)
        return "\(c.monthName) \(c.dd), \(c.year4) \(c.hh):\(c.mm)"
    }

    /// "Fri Nov 20, 2026  07:30": the weight table's form, day zero-padded so the column lines up.
    func tableDateTime(_ date: Date) -> String {
        let c = DateText.parts(of: date, in: calendar)
        return "\(c.weekdayName) \(c.monthName) \(c.dd), \(c.year4)  \(c.hh):\(c.mm)"
    }

    /// "Fri, Nov 20, 2026".
    func longDay(_ day: Day) -> String {
        let c = DateText.parts(of: day.start(in: calendar), in: calendar)
        return "\(c.weekdayName), \(c.monthName) \(c.day), \(c.year4)"
    }

    /// "Fri Nov 20".
    func weekDay(_ day: Day) -> String {
        let c = DateText.parts(of: day.start(in: calendar), in: calendar)
        return "\(c.weekdayName) \(c.monthName) \(c.day)"
    }

    /// "Nov 20".
    func shortDay(_ day: Day) -> String {
        let c = DateText.parts(of: day.start(in: calendar), in: calendar)
        return "\(c.monthName) \(c.day)"
    }

    /// "HH:mm:ss" for the status bar's last update.
    func time(_ date: Date) -> String {
        let c = DateText.parts(of: date, in: calendar)
        return "\(c.hh):\(c.mm):\(c.ss)"
    }

    /// "just now", "5 min ago", "3 h ago", "yesterday", "12 days ago"; past four weeks the date itself
    /// ("Mar 4", or "Mar 4, 2015" in another year), since "3974 days ago" tells nobody anything.
    func age(of date: Date, now: Date) -> String {
        let seconds = Int(rounding: now.timeIntervalSince(date), .towardZero)
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        case ..<(2 * 86_400): return "yesterday"
        case ..<(28 * 86_400): return "\(seconds / 86_400) days ago"
        default:
            let then = DateText.parts(of: date, in: calendar)
            let thisYear = DateText.parts(of: now, in: calendar).year4
            return then.year4 == thisYear ? "\(then.monthName) \(then.day)" : "\(then.monthName) \(then.day), \(then.year4)"
        }
    }

    /// One decimal: "72.4".
    static func oneDecimal(_ value: Double) -> String { CNumberText.fixed(value, decimals: 1) }

    /// A duration in minutes as hours and minutes: "7 h 05", "45 min".
    static func hoursMinutes(_ minutes: Double) -> String {
        let whole = Int(rounding: minutes)
        guard whole >= 60 else { return "\(max(whole, 0)) min" }
        return String(format: "%d h %02d", whole / 60, whole % 60)
    }

    /// A whole number with thousands separators: "1,234".
    static func whole(_ value: Double) -> String {
        let n = Int(rounding: value)
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "−" : "") + out
    }

    /// A signed whole number: "+250", "−320", "0".
    static func signedWhole(_ value: Double) -> String {
        let n = value.rounded()
        if n > 0 { return "+" + whole(n) }
        return whole(n)
    }

    /// A reading's field value with its manifest unit: "650 kcal", "72.4 kg", "ok".
    static func fieldValue(_ value: FieldValue, unit: String?) -> String {
        switch value {
        case .number(let n):
            let text = n == n.rounded() && abs(n) < 1e9 ? String(Int(rounding: n)) : oneDecimal(n)
            return unit.map { "\(text) \($0)" } ?? text
        case .text(let s):
            return s
        }
    }
}

/// A short message for any error, preferring `HealthError`'s actionable text.
func describe(_ error: Error) -> String {
    if let health = error as? HealthError { return health.message }
    return String(describing: error)
}
