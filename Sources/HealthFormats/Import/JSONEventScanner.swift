import Foundation
import HealthCore

/// What `JSONEventScanner` reports as it reads: the structure of a JSON text, one value at a time.
protocol JSONEventHandler {
    /// An object or array opens at `path` (`data.metrics[3]`, as `JSONPath` writes it).
    mutating func open(_ container: JSONContainer, at path: JSONPath) throws
    /// The object or array at `path` closes.
    mutating func close(_ container: JSONContainer, at path: JSONPath) throws
    /// A string, number, `true`, `false` or `null` at `path`.
    mutating func scalar(_ value: JSONScalar, at path: JSONPath) throws
}

enum JSONContainer { case object, array }

/// A problem with a JSON text, or with what it holds, at a path: `data.metrics[3].data[17].date: "…" is not …`.
struct JSONProblem: Error, CustomStringConvertible {
    var path: JSONPath
    var message: String

    var description: String { "\(path): \(message)" }
}

/// A JSON value that is not a container. Numbers keep their text: the handler decides how to read it.
enum JSONScalar: Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}

/// Where a value is in the document, kept as the scanner goes: keys and array indexes from the root.
struct JSONPath: CustomStringConvertible {
    enum Step: Equatable {
        case key(String)
        case index(Int)
    }

    var steps: [Step] = []
    var depth: Int { steps.count }

    /// `data.metrics[3].data[17].date`; `body` for the root.
    var description: String {
        guard !steps.isEmpty else { return "body" }
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// The key of the last step, if it is one.
    var lastKey: String? { if case .key(let key)? = steps.last { key } else { nil } }

    /// Whether the path is `keys` (each a key, or nil for any index), from the root.
    func matches(_ pattern: [String?]) -> Bool {
        guard pattern.count == steps.count else { return false }
        for (step, expected) in zip(steps, pattern) {
            switch (step, expected) {
            case (.key(let key), let expected?) where key == expected: continue
            case (.index, nil): continue
            default: return false
            }
        }
        return true
    }

    /// The index at step `position`; nil if that step is a key.
    func index(at position: Int) -> Int? {
        guard position < steps.count, case .index(let index) = steps[position] else { return nil }
        return index
    }
}

/// Reads a JSON text fed in chunks of any size and reports each value to a handler, keeping nothing of the
/// document but the path to the current value, so a body of tens of megabytes is read in bounded memory
/// (Health Auto Export's payloads: `HealthAutoExportReader`). RFC 8259's grammar, with limits that no
/// payload hmon reads comes near: nesting depth, and the length of one string or number.
struct JSONEventScanner<Handler: JSONEventHandler> {
    typealias Container = JSONContainer
    typealias Problem = JSONProblem

    static var maxDepth: Int { 64 }
    static var maxStringBytes: Int { 1 << 16 }

    var handler: Handler

    private enum Expect { case value, keyOrEnd, key, colon, commaOrEnd, valueOrEnd, done }
    private enum Token { case none, string, number, literal }

    private var stack: [Container] = []
    private var path = JSONPath()
    private var expect = Expect.value
    private var token = Token.none
    private var bytes: [UInt8] = []
    private var escaped = false
    /// Whether the string being read is an object's key.
    private var readingKey = false
    private var started = false

    init(handler: Handler) {
        self.handler = handler
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        for byte in chunk {
            try take(byte)
        }
    }

    /// The end of the text: everything must have closed.
    mutating func finish() throws {
        if token == .number || token == .literal { try endToken() }
        guard started else { throw Problem(path: path, message: "is empty: send a JSON object") }
        guard expect == .done, token == .none else { throw Problem(path: path, message: "ends before the JSON text does (is it cut short?)") }
    }

    private mutating func take(_ byte: UInt8) throws {
        switch token {
        case .string:
            try stringByte(byte)
            return
        case .number, .literal:
            if Self.isNumberOrLiteralByte(byte) {
                bytes.append(byte)
                if bytes.count > 64 { throw Problem(path: path, message: "holds a number or word longer than 64 characters") }
                return
            }
            try endToken()
        case .none:
            break
        }
        if Self.isSpace(byte) { return }
        switch expect {
        case .done:
            throw Problem(path: JSONPath(), message: "has more after the JSON text's end (\(Self.describe(byte)))")
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw Problem(path: path, message: "expected ':' after the key, found \(Self.describe(byte))") }
            expect = .value
        case .key, .keyOrEnd:
            if byte == UInt8(ascii: "}"), expect == .keyOrEnd { try closeContainer(.object); return }
            guard byte == UInt8(ascii: "\"") else { throw Problem(path: path, message: "expected a key in quotes, found \(Self.describe(byte))") }
            startString(key: true)
        case .commaOrEnd:
            let container = stack.last!
            if byte == UInt8(ascii: ",") {
                if container == .object {
                    path.steps.removeLast()
                    expect = .key
                } else {
                    if case .index(let index)? = path.steps.last { path.steps[path.steps.count - 1] = .index(index + 1) }
                    expect = .value
                }
            } else if byte == UInt8(ascii: "}"), container == .object {
                try closeContainer(.object)
            } else if byte == UInt8(ascii: "]"), container == .array {
                try closeContainer(.array)
            } else {
                throw Problem(path: path, message: "expected ',' or '\(container == .object ? "}" : "]")', found \(Self.describe(byte))")
            }
        case .value, .valueOrEnd:
            if byte == UInt8(ascii: "]"), expect == .valueOrEnd { try closeContainer(.array); return }
            try startValue(byte)
        }
    }

    private mutating func startValue(_ byte: UInt8) throws {
        started = true
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let container: Container = byte == UInt8(ascii: "{") ? .object : .array
            guard stack.count < Self.maxDepth else { throw Problem(path: path, message: "is nested deeper than \(Self.maxDepth) levels") }
            try handler.open(container, at: path)
            stack.append(container)
            if container == .array { path.steps.append(.index(0)) }
            expect = container == .object ? .keyOrEnd : .valueOrEnd
        case UInt8(ascii: "\""):
            startString(key: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            token = .number
            bytes = [byte]
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            token = .literal
            bytes = [byte]
        default:
            throw Problem(path: path, message: "expected a value, found \(Self.describe(byte))")
        }
    }

    private mutating func closeContainer(_ container: Container) throws {
        stack.removeLast()
        // An array's index step (or an object's last key) belongs to the container, not to where it sits.
        if container == .array || expect == .commaOrEnd { path.steps.removeLast() }
        try handler.close(container, at: path)
        afterValue()
    }

    private mutating func afterValue() {
        expect = stack.isEmpty ? .done : .commaOrEnd
    }

    private mutating func startString(key: Bool) {
        token = .string
        readingKey = key
        bytes.removeAll(keepingCapacity: true)
        escaped = false
    }

    private mutating func stringByte(_ byte: UInt8) throws {
        if escaped {
            escaped = false
            bytes.append(byte)
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
            bytes.append(byte)
        } else if byte == UInt8(ascii: "\"") {
            try endToken()
            return
        } else if byte < 0x20 {
            throw Problem(path: path, message: "holds an unescaped control character (\(Self.describe(byte))) in a string")
        } else {
            bytes.append(byte)
        }
        if bytes.count > Self.maxStringBytes {
            throw Problem(path: path, message: "holds a string longer than \(Self.maxStringBytes >> 10) KB")
        }
    }

    private mutating func endToken() throws {
        let kind = token
        token = .none
        switch kind {
        case .none:
            return
        case .string:
            let text = try decodedString()
            if readingKey {
                path.steps.append(.key(text))
                expect = .colon
                return
            }
            try handler.scalar(.string(text), at: path)
        case .number:
            let text = String(decoding: bytes, as: UTF8.self)
            guard Self.isJSONNumber(bytes) else { throw Problem(path: path, message: "\"\(text)\" is not a JSON number") }
            try handler.scalar(.number(text), at: path)
        case .literal:
            switch bytes {
            case Array("true".utf8): try handler.scalar(.bool(true), at: path)
            case Array("false".utf8): try handler.scalar(.bool(false), at: path)
            case Array("null".utf8): try handler.scalar(.null, at: path)
            default: throw Problem(path: path, message: "\"\(String(decoding: bytes, as: UTF8.self))\" is not a JSON value")
            }
        }
        afterValue()
    }

    /// The string's text with its escapes resolved; JSON's own decoder does that, on this one string.
    private func decodedString() throws -> String {
        if !bytes.contains(UInt8(ascii: "\\")) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Problem(path: path, message: "holds a string that is not UTF-8")
            }
            return text
        }
        let quoted = [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
        guard let text = try? JSONDecoder().decode(String.self, from: Data(quoted)) else {
            throw Problem(path: path, message: "holds a string with a malformed escape")
        }
        return text
    }

    private static func isJSONNumber(_ b: [UInt8]) -> Bool {
        var i = 0
        func digits() -> Int {
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        let whole = i
        guard digits() > 0 else { return false }
        if b[whole] == UInt8(ascii: "0"), i - whole > 1 { return false }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == b.count
    }

    private static func isNumberOrLiteralByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "E")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
    }
}
