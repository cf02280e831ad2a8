import Crypto
import Foundation

/// How an imported reading is stored: its message data and its deterministic id.
enum StoredReading {
    /// `{"weight":72.4}`, in the units and number types of the built-in manifests
    /// (height in m; calories a whole number of kcal).
    static func json(_ reading: ImportedReading) -> String {
        var text = "{\"" + reading.kind.field + "\":" + storedValue(reading.kind, reading.value)
        for (name, value) in reading.extras.sorted(by: { $0.key < $1.key }) {
            text += ",\"" + name + "\":" + number(value)
        }
        return text + "}"
    }

    private static func storedValue(_ kind: ReadingKind, _ value: Double) -> String {
        switch kind {
        case .height: number(value / 100)
        case .dietaryEnergy: String(Int64(value.rounded()))
        default: number(value)
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A deterministic id: 12 hex digits of the time, then 20 of SHA-256 over user, source, kind,
    /// time and stored data. The same reading imported again (from this file or an overlapping export)
    /// gets the same id; the time prefix keeps the primary-key index written nearly in order, which
    /// makes a large import several times faster than fully random ids would.
    static func mid(userID: String, reading: ImportedReading, json: String) -> String {
        var key = userID
        key += "\u{1F}"
        key += reading.source
        key += "\u{1F}"
        key += reading.kind.rawValue
        key += "\u{1F}"
        key += String(reading.timestamp)
        key += "\u{1F}"
        key += json
        let digest = key.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { hex in
            var time = UInt64(max(0, reading.timestamp))
            for i in stride(from: 11, through: 0, by: -1) {
                hex[i] = hexDigits[Int(time & 0x0F)]
                time >>= 4
            }
            var i = 12
            for byte in digest {
                guard i < 32 else { break }
                hex[i] = hexDigits[Int(byte >> 4)]
                hex[i + 1] = hexDigits[Int(byte & 0x0F)]
                i += 2
            }
            return String(decoding: hex, as: UTF8.self)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension ReadingKind {
    /// The built-in device type whose devices carry readings of this kind.
    var builtInType: BuiltInDeviceType {
        switch self {
        case .weight, .height: .withings
        case .activeEnergy, .basalEnergy, .heartRateVariability: .activityTracker
        case .dietaryEnergy: .calorieTracker
        }
    }
}
