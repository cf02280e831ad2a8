import Foundation
import HealthCore
import HealthModel

/// Splits a JSON array of flat objects, fed in chunks, into each object's bytes, so `hmon import` of
/// hmon's own JSON export holds one row at a time instead of the whole file.
///
/// It checks only what splitting needs: the array's brackets, the objects' braces outside strings, and
/// escapes inside them; each object is then read by `JSONEventScanner` (`ExportJSONRowHandler`), which
/// checks the rest. An object longer than `maxObjectBytes`, or nested deeper than an export's rows are, is
/// refused at its row, in time linear in the file.
struct JSONArrayObjects {
    /// An export's row is seven short fields; a reading's text is at most 10,000 bytes.
    static let maxObjectBytes = 1 << 16
    /// A row is an object of strings and numbers: nothing inside it opens another bracket.
    static let maxDepth = 1

    struct Problem: Error {
        var row: Int
        var message: String
    }

    private enum State { case beforeArray, betweenObjects, inObject, afterArray }
    private var state = State.beforeArray
    private var object: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var expectingObject = true
    /// Which object of the array this is, from 1.
    private(set) var row = 0

    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ onObject: ([UInt8], Int) throws -> Void) throws {
        for byte in bytes {
            switch state {
            case .beforeArray:
                if Self.isSpace(byte) || byte == 0xEF || byte == 0xBB || byte == 0xBF { continue }
                guard byte == UInt8(ascii: "[") else { throw Problem(row: 0, message: "the file does not start with a JSON array") }
                state = .betweenObjects
            case .betweenObjects:
                if Self.isSpace(byte) { continue }
                if byte == UInt8(ascii: ",") && !expectingObject { expectingObject = true; continue }
                if byte == UInt8(ascii: "]") && (row == 0 || !expectingObject) { state = .afterArray; continue }
                guard byte == UInt8(ascii: "{"), expectingObject else {
                    throw Problem(row: row + 1, message: "expected an object of the array")
                }
                row += 1
                state = .inObject
                object = [byte]
                depth = 1
                inString = false
                escaped = false
            case .inObject:
                object.append(byte)
                guard object.count <= Self.maxObjectBytes else {
                    throw Problem(row: row, message: "an object longer than \(Self.maxObjectBytes >> 10) KB: not a row of hmon's export")
                }
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth > Self.maxDepth { throw Problem(row: row, message: "a value nested inside the row: not a row of hmon's export") }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        try onObject(object, row)
                        object.removeAll(keepingCapacity: true)
                        state = .betweenObjects
                        expectingObject = false
                    }
                default: break
                }
            case .afterArray:
                guard Self.isSpace(byte) else { throw Problem(row: row, message: "more after the array's end") }
            }
        }
    }

    /// The end of the file: the array must have closed.
    func finish() throws {
        guard state == .afterArray else { throw Problem(row: row, message: "the file ends before its array does") }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
