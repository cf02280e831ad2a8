import Foundation

/// A JSON text read piece by piece: the members of its top-level object as byte ranges, and an array's
/// elements one at a time, each parsed on its own (`JSONSerialization`) and let go before the next.
///
/// Parsing a 32 MB Health Connect batch whole built a tree of `NSDictionary`s for its 470,000 records, about
/// 2 GB. Only the structure between values (the top object's keys, colons and commas, an array's commas and
/// brackets) is read here; every value is still parsed by `JSONSerialization`, so a body that is not JSON is
/// refused as before, wherever its fault is.
struct JSONSlices {
    struct Malformed: Error {}

    let bytes: Data

    /// The top-level object's members in the order they come, each with its value's range; `Malformed` when
    /// the text is not one object (a member's value itself is checked when it is parsed).
    func topLevelMembers() throws(Malformed) -> [(name: String, value: Range<Int>)] {
        var index = skipSpace(bytes.startIndex)
        // A UTF-8 byte order mark, which JSONSerialization skips too.
        if bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]) { index = skipSpace(index + 3) }
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else { throw Malformed() }
        index = skipSpace(index + 1)
        var members: [(name: String, value: Range<Int>)] = []
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { throw Malformed() }
                let nameEnd = try valueEnd(index)
                guard let name = try parse(index..<nameEnd) as? String else { throw Malformed() }
                index = skipSpace(nameEnd)
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { throw Malformed() }
                let start = skipSpace(index + 1)
                let end = try valueEnd(start)
                members.append((name, start..<end))
                index = skipSpace(end)
                guard index < bytes.endIndex else { throw Malformed() }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    break
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw Malformed() }
                index = skipSpace(index + 1)
            }
        }
        guard skipSpace(index) == bytes.endIndex else { throw Malformed() }
        return members
    }

    /// Whether the value at `range` is an array (its elements are then read with `forEachElement`).
    func isArray(_ range: Range<Int>) -> Bool {
        !range.isEmpty && bytes[range.lowerBound] == UInt8(ascii: "[")
    }

    /// The value at `range`, parsed whole: for a small one (an envelope's field, one record).
    func parse(_ range: Range<Int>) throws(Malformed) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: bytes[range], options: [.fragmentsAllowed])
        } catch {
            throw Malformed()
        }
    }

    /// The elements of the array at `range`, one at a time (`Elements.next()`).
    func elements(_ range: Range<Int>) -> Elements {
        Elements(slices: self, range: range)
    }

    /// An array's elements, each parsed when it is asked for and let go by the caller before the next.
    struct Elements {
        let slices: JSONSlices
        let range: Range<Int>
        private var index: Int?
        private var place = 0

        init(slices: JSONSlices, range: Range<Int>) {
            self.slices = slices
            self.range = range
        }

        /// The next element with its place in the array; nil after the last. `Malformed` when the array is not
        /// one (a missing or extra comma, a bracket that does not close it, an element that is not JSON).
        mutating func next() throws(Malformed) -> (place: Int, value: Any)? {
            let bytes = slices.bytes
            let close = range.upperBound - 1
            var at: Int
            if let index {
                at = index
            } else {
                guard slices.isArray(range), bytes[close] == UInt8(ascii: "]") else { throw Malformed() }
                at = slices.skipSpace(range.lowerBound + 1)
            }
            guard at < close else {
                guard at == close else { throw Malformed() }
                index = at
                return nil
            }
            let end = try slices.valueEnd(at)
            guard end <= close else { throw Malformed() }
            let value = try slices.parse(at..<end)
            at = slices.skipSpace(end)
            if at < close {
                guard bytes[at] == UInt8(ascii: ",") else { throw Malformed() }
                at = slices.skipSpace(at + 1)
                // A comma before the closing bracket is not JSON.
                guard at < close else { throw Malformed() }
            }
            index = at
            place += 1
            return (place - 1, value)
        }
    }

    /// Skips JSON's whitespace from `index`.
    func skipSpace(_ index: Int) -> Int {
        var index = index
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }

    /// Where the value starting at `start` ends: a string at its closing quote, an object or array at the
    /// bracket that closes it, anything else before the next delimiter. Whether it is well formed inside is
    /// left to `parse`.
    func valueEnd(_ start: Int) throws(Malformed) -> Int {
        guard start < bytes.endIndex else { throw Malformed() }
        var index = start
        var depth = 0
        var inString = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return index - 1 }
                depth -= 1
                if depth == 0 { return index }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return index - 1 }
            default:
                break
            }
        }
        guard depth == 0, !inString else { throw Malformed() }
        return bytes.endIndex
    }
}
