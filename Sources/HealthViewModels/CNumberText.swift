#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fixed-point number text through the C library's `snprintf`: the same digits and rounding as
/// `String(format: "%.1f")`, without going through Foundation's formatter on every table cell.
enum CNumberText {
    static func fixed(_ value: Double, decimals: Int) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            let written = withVaList([value]) { vsnprintf(buffer.baseAddress!, 64, "%.\(decimals)f", $0) }
            guard written > 0 else { return String(value) }
            return String(cString: buffer.baseAddress!)
        }
    }
}
