import Foundation
import HealthCore

/// Reads a Fitbit export's JSON file, an array of flat records (`[{"logId": …, "weight": …, "date": …}, …]`),
/// one record at a time: each record's scalar fields go to `record` when it closes, with its place for
/// messages. Nested values (none of the kept fields is one) are passed over. Memory holds one record.
struct FitbitJSONRecords: JSONEventHandler {
    var record: (_ fields: [String: JSONScalar], _ at: JSONPath) throws -> Void
    private var fields: [String: JSONScalar] = [:]

    init(record: @escaping (_ fields: [String: JSONScalar], _ at: JSONPath) throws -> Void) {
        self.record = record
    }

    mutating func open(_ container: JSONContainer, at path: JSONPath) throws {
        if path.depth == 0, container != .array { throw JSONProblem(path: path, message: "must be an array of records") }
        if path.depth == 1 {
            guard container == .object else { throw JSONProblem(path: path, message: "must be a record (an object)") }
            fields.removeAll(keepingCapacity: true)
        }
    }

    mutating func close(_ container: JSONContainer, at path: JSONPath) throws {
        if path.depth == 1 { try record(fields, path) }
    }

    mutating func scalar(_ value: JSONScalar, at path: JSONPath) throws {
        if path.depth == 0 { throw JSONProblem(path: path, message: "must be an array of records") }
        if path.depth == 1 { throw JSONProblem(path: path, message: "must be a record (an object)") }
        if path.depth == 2, let key = path.lastKey { fields[key] = value }
    }

    /// Runs the scanner over `file`; a malformed place becomes an `ImportError` naming the file and the place.
    static func read(_ file: DownloadFile, download: String,
                     record: @escaping (_ fields: [String: JSONScalar], _ at: JSONPath) throws -> Void) throws {
        var scanner = JSONEventScanner(handler: FitbitJSONRecords(record: record))
        do {
            try file.read { try scanner.feed($0) }
            try scanner.finish()
        } catch let problem as JSONProblem {
            throw ImportError(file: "\(download)/\(file.path)", problem: problem.description)
        }
    }
}

extension JSONScalar {
    /// A number, whether written as one or, as Fitbit writes minute values, as a string ("2.62").
    var number: Double? {
        switch self {
        case .number(let text), .string(let text):
            Array(text.utf8).withUnsafeBufferPointer(ByteParsing.double)
        default: nil
        }
    }

    var text: String? {
        switch self {
        case .string(let text), .number(let text): text
        default: nil
        }
    }
}

/// The dates Fitbit's JSON files write: `03/14/26` (month, day, two-digit year of this century), with the
/// time apart (`06:40:00`) or after a space (`03/14/26 06:40:00`).
enum FitbitDates {
    /// ms since the epoch of a local date and time in `zone`; nil when it is no such date.
    static func timestamp(_ text: String, time: String? = nil, in zone: TimeZone) -> Int64? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let date = parts.first else { return nil }
        let numbers = date.split(separator: "/", omittingEmptySubsequences: false)
        guard numbers.count == 3, numbers.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let iso = "20\(numbers[2])-\(numbers[0])-\(numbers[1])"
        return CSVDates.timestamp(date: iso, time: time ?? parts.dropFirst().first.map(String.init), in: zone)
    }
}
