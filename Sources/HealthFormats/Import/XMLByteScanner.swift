#if canImport(Glibc)
import Glibc
import HealthModel
#elseif canImport(Darwin)
import Darwin
#endif

/// One attribute of a start tag, as byte ranges into the scanner's buffer.
struct XMLAttribute {
    var name: Range<Int>
    var value: Range<Int>
    /// Whether the value holds `&…;` references and must be decoded before use.
    var hasEntity: Bool
}

/// A start tag as the scanner hands it over; its ranges are valid only during the `startTag` call.
struct XMLStartTag {
    let buffer: UnsafeBufferPointer<UInt8>
    let name: Range<Int>
    /// 0 for the root element, 1 for its children, …
    let depth: Int
    let attributes: [XMLAttribute]
    /// Where the tag's `<` is, for error positions.
    let offset: Int
    /// `<… />`: no children and no end tag follow.
    let selfClosing: Bool

    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[range]) }

    var nameBytes: UnsafeBufferPointer<UInt8> { bytes(name) }

    func nameIs(_ expected: [UInt8]) -> Bool { expected.equals(nameBytes) }

    func attribute(_ attributeName: [UInt8]) -> XMLAttribute? {
        for attribute in attributes where attributeName.equals(bytes(attribute.name)) { return attribute }
        return nil
    }

    /// The attribute's value with references decoded, as text.
    func string(_ attribute: XMLAttribute) -> String {
        withValue(attribute) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the attribute's value, references decoded (without copying when it has none).
    func withValue<T>(_ attribute: XMLAttribute, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let raw = bytes(attribute.value)
        guard attribute.hasEntity else { return try body(raw) }
        let decoded = XMLEntities.decode(raw)
        return try decoded.withUnsafeBufferPointer { try body($0) }
    }
}

/// Receives the start tags of a document, in order, and is told where elements end.
protocol XMLTagHandler {
    /// Throws `ParseProblem` (with an offset into `tag.buffer`) to stop the scan at that place.
    mutating func startTag(_ tag: XMLStartTag) throws
    /// An element that was not self-closing ends; `depth` is its start tag's.
    mutating func endTag(depth: Int) throws
}

extension XMLTagHandler {
    mutating func endTag(depth: Int) throws {}
}

/// A streaming, allocation-free XML scanner over bytes, fed in chunks of any size.
///
/// Why not Foundation's `XMLParser`: on Linux it goes through libxml2 and builds a `String` and a
/// dictionary for every element and attribute, and it cannot be fed chunks from a zip entry as they
/// inflate. An Apple Health export is gigabytes of one-line `<Record …/>` elements of which hmon keeps
/// a few kinds, so this scanner only finds tags and splits attributes into byte ranges; the handler
/// looks at the few it cares about. It still checks what makes a file well-formed enough to trust —
/// tags and attribute values terminated, quoted values, valid `&…;` references, start and end tags
/// matching, one root, the file not ending inside an element — and reports line and column.
/// It skips the DOCTYPE (with its internal subset), comments, processing instructions and CDATA.
/// Memory is the largest single construct plus one chunk, whatever the file size.
///
/// A struct rather than a class so that its state is checked for exclusive access at compile time:
/// as a class, the runtime checks on every property access in the inner loop cost a fifth of the time.
struct XMLByteScanner<Handler: XMLTagHandler> {
    var handler: Handler
    /// Bytes received but not yet scanned: an unfinished construct at the end of the last chunk.
    private var pending: [UInt8] = []
    /// Names of the open elements, concatenated; `openStarts` marks where each begins.
    private var openNames: [UInt8] = []
    private var openStarts: [Int] = []
    private var attributes: [XMLAttribute] = []
    private var seenRoot = false
    private var rootClosed = false
    private var atFileStart = true
    /// Line and column (in characters) of `pending[0]`.
    private var line = 1
    private var column = 1
    /// Bytes scanned and let go so far.
    private(set) var bytesScanned: Int64 = 0

    /// A tag, comment or DOCTYPE longer than this is refused rather than buffered without bound.
    static var maxConstructBytes: Int { 16 << 20 }
    /// How deep elements may nest. Apple Health's export is 4 deep (HealthData, Record, MetadataEntry or
    /// HeartRateVariabilityMetadataList, InstantaneousBeatsPerMinute); a file nested deeper is no export,
    /// and unbounded nesting let a 1 MB zip of nested elements take gigabytes.
    static var maxDepth: Int { 64 }

    init(handler: Handler) {
        self.handler = handler
        pending.reserveCapacity(1 << 20)
        attributes.reserveCapacity(16)
    }

    /// Scans the next chunk of the file. Throws `LocatedProblem` at the first malformed place.
    /// Other errors (thrown by the handler's sink) pass through unchanged.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        pending.append(contentsOf: chunk)
        if atFileStart {
            guard pending.count >= 3 else { return }
            if pending[0] == 0xEF && pending[1] == 0xBB && pending[2] == 0xBF { advance(by: 3) }
            atFileStart = false
        }
        try scanPending(atEnd: false)
        if pending.count > Self.maxConstructBytes {
            throw LocatedProblem(message: "a tag or comment longer than \(Self.maxConstructBytes >> 20) MB", line: line, column: column)
        }
    }

    /// Scans what is left and checks that the document is complete.
    mutating func finish() throws {
        atFileStart = false
        try scanPending(atEnd: true)
        if let top = openStarts.last {
            let name = String(decoding: openNames[top...], as: UTF8.self)
            throw LocatedProblem(message: "the file ends before </\(name)>: it is truncated", line: line, column: column)
        }
        if !seenRoot {
            throw LocatedProblem(message: "no XML element in the file", line: line, column: column)
        }
    }

    private mutating func scanPending(atEnd: Bool) throws {
        var consumed = 0
        do {
            // A second reference to the same storage, so `scan` may mutate the rest of `self`.
            let bytes = pending
            try bytes.withUnsafeBufferPointer { buffer in
                try scan(buffer, from: &consumed, atEnd: atEnd)
            }
        } catch let problem as ParseProblem {
            let (line, column) = location(of: problem.offset ?? consumed)
            throw LocatedProblem(message: problem.message, line: line, column: column)
        }
        advance(by: consumed)
    }

    // MARK: Scanning

    private mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>, from i: inout Int, atEnd: Bool) throws {
        let n = buffer.count
        guard let p = buffer.baseAddress else { return }
        while i < n {
            // Text up to the next tag.
            let lt: Int
            if let hit = memchr(p + i, 0x3C, n - i) {
                lt = p.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            } else {
                guard atEnd else {
                    // Text runs past this chunk: check and let go of it now, but for a reference it may end
                    // inside (`&am` + `p;`), so that text is never held whole: 1 GiB of white space was held
                    // until it passed 16 MB and was called "a tag longer than 16 MB".
                    let safe = Self.endOfCompleteReferences(p, i, n)
                    if safe > i { try checkText(p, i, safe) }
                    i = safe
                    return
                }
                lt = n
            }
            if lt > i { try checkText(p, i, lt) }
            i = lt
            guard i < n else { return }
            guard let end = try construct(buffer, at: i, atEnd: atEnd) else { return }
            i = end
        }
    }

    /// Scans the construct starting with `<` at `i`; returns where it ends, or nil when the buffer ends first.
    private mutating func construct(_ buffer: UnsafeBufferPointer<UInt8>, at i: Int, atEnd: Bool) throws -> Int? {
        let p = buffer.baseAddress!
        let n = buffer.count
        guard i + 1 < n else { return try incomplete("a tag", at: i, atEnd: atEnd) }
        switch p[i + 1] {
        case UInt8(ascii: "?"):
            guard let end = find(p, n, from: i + 2, "?>") else { return try incomplete("a processing instruction", at: i, atEnd: atEnd) }
            return end
        case UInt8(ascii: "!"):
            if startsWith(p, n, at: i, "<!--") {
                guard let end = find(p, n, from: i + 4, "-->") else { return try incomplete("a comment", at: i, atEnd: atEnd) }
                return end
            }
            if startsWith(p, n, at: i, "<![CDATA[") {
                guard !openStarts.isEmpty else { throw ParseProblem("CDATA outside the root element", at: i) }
                guard let end = find(p, n, from: i + 9, "]]>") else { return try incomplete("a CDATA section", at: i, atEnd: atEnd) }
                return end
            }
            if startsWith(p, n, at: i, "<!DOCTYPE") {
                guard !seenRoot else { throw ParseProblem("a DOCTYPE after the root element", at: i) }
                guard let end = try doctype(p, n, at: i) else { return try incomplete("the DOCTYPE", at: i, atEnd: atEnd) }
                return end
            }
            guard n - i >= 9 || atEnd else { return nil }
            throw ParseProblem("unexpected markup after '<!'", at: i)
        case UInt8(ascii: "/"):
            return try endTag(buffer, at: i, atEnd: atEnd)
        default:
            return try startTag(buffer, at: i, atEnd: atEnd)
        }
    }

    private mutating func startTag(_ buffer: UnsafeBufferPointer<UInt8>, at i: Int, atEnd: Bool) throws -> Int? {
        let p = buffer.baseAddress!
        let n = buffer.count
        var k = i + 1
        guard isNameStart(p[k]) else { throw ParseProblem("'<' not followed by a tag name", at: i) }
        while k < n && isNameChar(p[k]) { k += 1 }
        let name = (i + 1)..<k
        func tagName() -> String { String(decoding: UnsafeBufferPointer(rebasing: buffer[name]), as: UTF8.self) }
        attributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        while true {
            let beforeSpace = k
            while k < n && isSpace(p[k]) { k += 1 }
            guard k < n else { return try incomplete("a <\(tagName())> tag", at: i, atEnd: atEnd) }
            let c = p[k]
            if c == UInt8(ascii: ">") { k += 1; break }
            if c == UInt8(ascii: "/") {
                guard k + 1 < n else { return try incomplete("a <\(tagName())> tag", at: i, atEnd: atEnd) }
                guard p[k + 1] == UInt8(ascii: ">") else { throw ParseProblem("expected '>' after '/' in <\(tagName())>", at: k + 1) }
                selfClosing = true
                k += 2
                break
            }
            if c == UInt8(ascii: "<") { throw ParseProblem("unterminated <\(tagName())> tag", at: i) }
            guard isNameStart(c) else { throw ParseProblem("unexpected \(describe(c)) in <\(tagName())>", at: k) }
            guard k > beforeSpace else { throw ParseProblem("missing space before an attribute in <\(tagName())>", at: k) }
            let nameStart = k
            while k < n && isNameChar(p[k]) { k += 1 }
            let attributeName = nameStart..<k
            func attributeText() -> String { String(decoding: UnsafeBufferPointer(rebasing: buffer[attributeName]), as: UTF8.self) }
            while k < n && isSpace(p[k]) { k += 1 }
            guard k < n else { return try incomplete("a <\(tagName())> tag", at: i, atEnd: atEnd) }
            guard p[k] == UInt8(ascii: "=") else { throw ParseProblem("attribute \(attributeText()) has no value", at: nameStart) }
            k += 1
            while k < n && isSpace(p[k]) { k += 1 }
            guard k < n else { return try incomplete("a <\(tagName())> tag", at: i, atEnd: atEnd) }
            let quote = p[k]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw ParseProblem("the value of attribute \(attributeText()) is not in quotes", at: k)
            }
            let quoteAt = k
            k += 1
            let valueStart = k
            var hasEntity = false
            while k < n {
                let v = p[k]
                if v == quote { break }
                if v == UInt8(ascii: "<") { throw ParseProblem("unterminated attribute value", at: quoteAt) }
                if v == UInt8(ascii: "&") { hasEntity = true }
                k += 1
            }
            guard k < n else {
                guard atEnd else { return nil }
                throw ParseProblem("unterminated attribute value (the file ends inside it)", at: quoteAt)
            }
            let value = valueStart..<k
            k += 1
            if hasEntity { try XMLEntities.validate(p, value) }
            attributes.append(XMLAttribute(name: attributeName, value: value, hasEntity: hasEntity))
        }
        let depth = openStarts.count
        if depth >= Self.maxDepth {
            throw ParseProblem("<\(tagName())> is nested more than \(Self.maxDepth) elements deep; an Apple Health export is 4", at: i)
        }
        if depth == 0 {
            guard !rootClosed else { throw ParseProblem("a second root element <\(tagName())>", at: i) }
            seenRoot = true
        }
        try handler.startTag(XMLStartTag(buffer: buffer, name: name, depth: depth, attributes: attributes, offset: i,
                                         selfClosing: selfClosing))
        if selfClosing {
            if depth == 0 { rootClosed = true }
        } else {
            openStarts.append(openNames.count)
            openNames.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[name]))
        }
        return k
    }

    private mutating func endTag(_ buffer: UnsafeBufferPointer<UInt8>, at i: Int, atEnd: Bool) throws -> Int? {
        let p = buffer.baseAddress!
        let n = buffer.count
        var k = i + 2
        guard k < n else { return try incomplete("an end tag", at: i, atEnd: atEnd) }
        guard isNameStart(p[k]) else { throw ParseProblem("'</' not followed by a tag name", at: i) }
        while k < n && isNameChar(p[k]) { k += 1 }
        let name = UnsafeBufferPointer(rebasing: buffer[(i + 2)..<k])
        while k < n && isSpace(p[k]) { k += 1 }
        guard k < n else { return try incomplete("an end tag", at: i, atEnd: atEnd) }
        let text = String(decoding: name, as: UTF8.self)
        guard p[k] == UInt8(ascii: ">") else { throw ParseProblem("unterminated </\(text)> tag", at: i) }
        guard let top = openStarts.last else { throw ParseProblem("</\(text)> closes no open element", at: i) }
        let open = openNames[top...]
        guard open.elementsEqual(name) else {
            throw ParseProblem("</\(text)> does not match <\(String(decoding: open, as: UTF8.self))>", at: i)
        }
        openNames.removeSubrange(top...)
        openStarts.removeLast()
        if openStarts.isEmpty { rootClosed = true }
        try handler.endTag(depth: openStarts.count)
        return k + 1
    }

    /// Skips `<!DOCTYPE name … [ internal subset ]>`, minding quoted strings and comments in the subset.
    private func doctype(_ p: UnsafePointer<UInt8>, _ n: Int, at i: Int) throws -> Int? {
        var k = i + 9
        var inSubset = false
        while k < n {
            let c = p[k]
            if inSubset && c == UInt8(ascii: "<") && startsWith(p, n, at: k, "<!--") {
                guard let end = find(p, n, from: k + 4, "-->") else { return nil }
                k = end
                continue
            }
            if inSubset && c == UInt8(ascii: "<") && k + 4 > n { return nil }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                guard let hit = memchr(p + k + 1, Int32(c), n - k - 1) else { return nil }
                k = p.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                continue
            }
            if inSubset {
                if c == UInt8(ascii: "]") { inSubset = false }
            } else if c == UInt8(ascii: "[") {
                inSubset = true
            } else if c == UInt8(ascii: ">") {
                return k + 1
            }
            k += 1
        }
        return nil
    }

    /// Where text that continues past `end` may be cut: before its last `&` when no `;` follows it (a
    /// reference the next chunk completes), else at `end`.
    private static func endOfCompleteReferences(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var k = end
        while k > start {
            k -= 1
            if p[k] == UInt8(ascii: ";") { return end }
            if p[k] == UInt8(ascii: "&") { return k }
        }
        return end
    }

    /// Text between tags: only white space outside the root; valid references inside it.
    private func checkText(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) throws {
        if openStarts.isEmpty {
            for k in start..<end where !isSpace(p[k]) {
                throw ParseProblem(seenRoot ? "text after the root element" : "text before the root element: not an XML file?", at: k)
            }
        } else if memchr(p + start, 0x26, end - start) != nil {
            try XMLEntities.validate(p, start..<end)
        }
    }

    private func incomplete(_ what: String, at i: Int, atEnd: Bool) throws -> Int? {
        guard atEnd else { return nil }
        throw ParseProblem("the file ends inside \(what): it is truncated", at: i)
    }

    // MARK: Positions

    /// Line and column of a byte offset in `pending`.
    private func location(of offset: Int) -> (Int, Int) {
        var line = self.line
        var column = self.column
        for byte in pending[..<min(offset, pending.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    /// Lets go of scanned bytes, keeping track of the line and column where the rest begins.
    private mutating func advance(by count: Int) {
        guard count > 0 else { return }
        var line = self.line
        var column = self.column
        pending.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            var k = 0
            var lastNewline = -1
            while k < count, let hit = memchr(p + k, 0x0A, count - k) {
                let at = p.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                line += 1
                lastNewline = at
                k = at + 1
            }
            if lastNewline >= 0 { column = 1 }
            for byte in buffer[(lastNewline + 1)..<count] where byte & 0xC0 != 0x80 { column += 1 }
        }
        self.line = line
        self.column = column
        pending.removeSubrange(0..<count)
        bytesScanned += Int64(count)
    }
}

/// A problem with its line and column, before the file name is attached.
struct LocatedProblem: Error {
    var message: String
    var line: Int
    var column: Int
}

// MARK: Byte classes

@inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

@inline(__always) func isNameStart(_ c: UInt8) -> Bool {
    (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == 0x5F || c == 0x3A || c >= 0x80
}

@inline(__always) func isNameChar(_ c: UInt8) -> Bool {
    isNameStart(c) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2E
}

private func describe(_ c: UInt8) -> String {
    c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x" + String(c, radix: 16, uppercase: true)
}

private func startsWith(_ p: UnsafePointer<UInt8>, _ n: Int, at i: Int, _ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard i + count <= n else { return false }
    return memcmp(p + i, literal.utf8Start, count) == 0
}

/// Where `literal` ends, searching from `from`; nil when it is not in the buffer.
private func find(_ p: UnsafePointer<UInt8>, _ n: Int, from: Int, _ literal: StaticString) -> Int? {
    let count = literal.utf8CodeUnitCount
    let first = Int32(literal.utf8Start.pointee)
    var k = from
    while k < n, let hit = memchr(p + k, first, n - k) {
        let at = p.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if at + count > n { return nil }
        if memcmp(p + at, literal.utf8Start, count) == 0 { return at + count }
        k = at + 1
    }
    return nil
}
