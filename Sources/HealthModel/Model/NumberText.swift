/// Numbers as people type them, the one rule every numeric entry goes through (command-line values, the
/// dashboard's prompts, the CSV importer's slow path): plain decimal digits with an optional sign, point
/// and exponent. `Double(_:)` alone also takes "nan", "inf", "infinity", hexadecimal ("0x40", "0x1p6")
/// and digit strings of any length, none of which anyone means as a weight.
public enum NumberText {
    /// Longer text is refused before it is parsed: no measurement needs more digits.
    public static let maximumLength = 40

    /// The value of `text` (surrounding spaces ignored); nil when it is not a plain decimal number or its
    /// value is not finite (`1e309`). Negative zero is returned as zero, so it is never stored as "-0".
    public static func decimal(_ text: some StringProtocol) -> Double? {
        let text = text.withoutSurroundingSpaces
        guard !text.isEmpty, text.utf8.count <= maximumLength, isPlainDecimal(text.utf8) else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value == 0 ? 0 : value
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`
    static func isPlainDecimal(_ bytes: some Collection<UInt8>) -> Bool {
        var index = bytes.startIndex
        func digits() -> Int {
            var count = 0
            while index != bytes.endIndex, (0x30...0x39).contains(bytes[index]) {
                count += 1
                index = bytes.index(after: index)
            }
            return count
        }
        func take(_ accepted: UInt8...) -> Bool {
            guard index != bytes.endIndex, accepted.contains(bytes[index]) else { return false }
            index = bytes.index(after: index)
            return true
        }
        _ = take(0x2B, 0x2D)
        var mantissa = digits()
        if take(0x2E) { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if take(0x65, 0x45) {
            _ = take(0x2B, 0x2D)
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}

private extension StringProtocol {
    var withoutSurroundingSpaces: Substring {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}
