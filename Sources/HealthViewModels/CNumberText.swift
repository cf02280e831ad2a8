#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fixed-point number text through the C library's `snprintf`: the same digits and rounding as
/// `String(format: "%.1f")`, without going through Foundation's formatter on every table cell.
enum CNumberText {
    static func fixed(_ value: Double, decimals: Int) -> String {
        let format = "%.\(decimals)f"
        // 64 bytes hold every value a screen shows; `vsnprintf` says how many it needed when they do not
        // (a double can have 309 digits before the point), and then it is written again at that size.
        let text = write(value, format: format, capacity: 64)
        if let text { return text }
        let needed = withVaList([value]) { vsnprintf(nil, 0, format, $0) }
        return needed > 0 ? write(value, format: format, capacity: Int(needed) + 1) ?? String(value) : String(value)
    }

    /// The text, or nil when `capacity` bytes (with the terminating zero) are too few.
    private static func write(_ value: Double, format: String, capacity: Int) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            let written = withVaList([value]) { vsnprintf(buffer.baseAddress!, capacity, format, $0) }
            guard written >= 0, Int(written) < capacity else { return nil }
            return String(cString: buffer.baseAddress!)
        }
    }
}
