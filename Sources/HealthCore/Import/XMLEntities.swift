#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// XML's predefined entities (`&amp; &lt; &gt; &quot; &apos;`) and character references (`&#NNN; &#xHH;`).
/// Apple Health writes them in `device` and `sourceName` values ("Jörg&apos;s iPhone").
enum XMLEntities {
    /// Throws at the first `&` that does not start a valid reference in `range`.
    static func validate(_ p: UnsafePointer<UInt8>, _ range: Range<Int>) throws {
        var k = range.lowerBound
        while k < range.upperBound, let hit = memchr(p + k, 0x26, range.upperBound - k) {
            let at = p.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            guard let (_, length) = reference(p, at, range.upperBound) else {
                let end = min(range.upperBound, at + 12)
                var shown = String(decoding: UnsafeBufferPointer(start: p + at, count: end - at), as: UTF8.self)
                if let semicolon = shown.firstIndex(of: ";") { shown = String(shown[...semicolon]) }
                throw ParseProblem("bad entity \"\(shown)\" (write & as &amp;)", at: at)
            }
            k = at + length
        }
    }

    /// Replaces references with the characters they stand for; `raw` must have passed `validate`.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        guard let p = raw.baseAddress else { return out }
        var k = 0
        while k < raw.count {
            if raw[k] == 0x26, let (scalar, length) = reference(p, k, raw.count) {
                out.append(contentsOf: String(Character(scalar)).utf8)
                k += length
            } else {
                out.append(raw[k])
                k += 1
            }
        }
        return out
    }

    /// The character a reference at `at` stands for and its length including `&` and `;`.
    private static func reference(_ p: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> (Unicode.Scalar, Int)? {
        var k = at + 1
        let limit = min(end, at + 12)
        while k < limit && p[k] != 0x3B { k += 1 }
        guard k < limit else { return nil }
        let body = UnsafeBufferPointer(start: p + at + 1, count: k - at - 1)
        let length = k - at + 1
        switch String(decoding: body, as: UTF8.self) {
        case "amp": return ("&", length)
        case "lt": return ("<", length)
        case "gt": return (">", length)
        case "quot": return ("\"", length)
        case "apos": return ("'", length)
        default: break
        }
        guard body.count >= 2, body[0] == UInt8(ascii: "#") else { return nil }
        let hex = body[1] == UInt8(ascii: "x")
        let digits = UnsafeBufferPointer(rebasing: body[(hex ? 2 : 1)...])
        guard !digits.isEmpty, let code = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
              let scalar = Unicode.Scalar(code), code != 0 else { return nil }
        return (scalar, length)
    }
}
