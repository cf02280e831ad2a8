import HealthModel

/// How a reading's ids (its own, its device's, its device type's, its user's) are kept in the `messages`
/// table and its indexes: as bytes, not as the hex text the API and exports show.
///
/// A row's four ids took 130 of its 192 bytes as text and were repeated in three indexes. Every form
/// below turns back into exactly the text it came from, so nothing outside the store sees a difference:
/// - 32 lowercase hex digits (every id hmon makes, `Secrets.newID()`): their 16 bytes;
/// - `dt` and 32 lowercase hex digits (a device type's id, SAMI's shape): `d` (0x64) and the 16 bytes;
/// - anything else (an id another system gave, upper-case hex): 0xFF, its UTF-8, and a second 0xFF when
///   that would make 16 bytes. UTF-8 never holds 0xFF, so this form is never taken for the other two.
///
/// The 16-byte form sorts as its hex text does (each byte is two digits, high first), so a page of
/// readings ordered by id keeps its order.
package enum BinaryID {
    /// The stored bytes of `id`.
    package static func encode(_ id: String) -> [UInt8] {
        var utf8 = Array(id.utf8)
        if utf8.count == 32, let bytes = hexBytes(utf8[...]) { return bytes }
        if utf8.count == 34, utf8[0] == UInt8(ascii: "d"), utf8[1] == UInt8(ascii: "t"), let bytes = hexBytes(utf8[2...]) {
            return [UInt8(ascii: "d")] + bytes
        }
        utf8.insert(0xFF, at: 0)
        if utf8.count == 16 { utf8.append(0xFF) }
        return utf8
    }

    /// The id whose stored bytes these are. Bytes no `encode` made (a store edited by hand) come back as
    /// hex, so they are still shown and found again, never trapped on.
    package static func decode(_ bytes: some Collection<UInt8>) -> String {
        let count = bytes.count
        if count == 16 { return hexText(bytes) }
        if count == 17, bytes.first == UInt8(ascii: "d") { return "dt" + hexText(bytes.dropFirst()) }
        if bytes.first == 0xFF {
            var text = Array(bytes.dropFirst())
            if count == 17, text.last == 0xFF { text.removeLast() }
            if let id = String(validating: text, as: UTF8.self) { return id }
        }
        return hexText(bytes)
    }

    /// The stored bytes between which every 16-byte id beginning with the hex digits `prefix` lies
    /// (`lower <= id < upper`), or nil when `prefix` is not lowercase hex of at most 32 digits. An
    /// `upper` of nil means the range is open above (a prefix of all `f`s).
    package static func range(ofHexPrefix prefix: String) -> (lower: [UInt8], upper: [UInt8]?)? {
        let digits = Array(prefix.utf8)
        guard digits.count <= 32 else { return nil }
        var nibbles: [UInt8] = []
        for digit in digits {
            guard let value = nibble(digit) else { return nil }
            nibbles.append(value)
        }
        var lower: [UInt8] = []
        for pair in stride(from: 0, to: nibbles.count, by: 2) {
            lower.append(nibbles[pair] << 4 | (pair + 1 < nibbles.count ? nibbles[pair + 1] : 0))
        }
        // The first id after the prefix: add one at the prefix's last digit, carrying.
        var next = nibbles
        var position = next.count - 1
        while position >= 0, next[position] == 0xF { next[position] = 0; position -= 1 }
        guard position >= 0 else { return (lower, nil) }
        next[position] += 1
        next.removeSubrange((position + 1)...)
        var upper: [UInt8] = []
        for pair in stride(from: 0, to: next.count, by: 2) {
            upper.append(next[pair] << 4 | (pair + 1 < next.count ? next[pair + 1] : 0))
        }
        return (lower, upper)
    }

    private static func hexBytes(_ digits: ArraySlice<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Lowercase only: "AB…" is kept as text, so it comes back upper-case as it was given.
    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hexText(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digits[Int(byte >> 4)]
                buffer[index + 1] = digits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }
}
