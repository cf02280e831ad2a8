#if canImport(Glibc)
import Glibc
import HealthModel
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

    private static let predefined: [([UInt8], Unicode.Scalar)] = [
        (Array("lt".utf8), "<"), (Array("gt".utf8), ">"), (Array("amp".utf8), "&"),
        (Array("quot".utf8), "\""), (Array("apos".utf8), "'"),
    ]

    /// The character a reference at `at` stands for and its length including `&` and `;`.
    private static func reference(_ p: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> (Unicode.Scalar, Int)? {
        var k = at + 1
        let limit = min(end, at + 12)
        while k < limit && p[k] != 0x3B { k += 1 }
        guard k < limit else { return nil }
        let body = UnsafeBufferPointer(start: p + at + 1, count: k - at - 1)
        let length = k - at + 1
        for (name, scalar) in predefined where name.equals(body) { return (scalar, length) }
        guard body.count >= 2, body[0] == UInt8(ascii: "#") else { return nil }
        let hex = body[1] == UInt8(ascii: "x")
        let digits = body[(hex ? 2 : 1)...]
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var code: UInt32 = 0
        for c in digits {
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x61...0x66 where hex: digit = UInt32(c - 0x61 + 10)
            case 0x41...0x46 where hex: digit = UInt32(c - 0x41 + 10)
            default: return nil
            }
            code = code * (hex ? 16 : 10) + digit
        }
        guard code != 0, let scalar = Unicode.Scalar(code) else { return nil }
        return (scalar, length)
    }
}
