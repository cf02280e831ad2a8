import Foundation
import HealthCore

/// Reads an export's JSON file that is an array of records (`[{"logId": …, "weight": …, "date": …}, …]`, as
/// Fitbit's and Garmin Connect's exports write them) one record at a time: each record's scalar fields go to
/// `record` when it closes, with its place for messages. With `flatteningOneLevel`, so do those of the
/// objects in it one level down, under dotted names (`weight.weight`, `metaData.calendarDate`); deeper
/// values (a night's score breakdown, a day's stress list) are passed over, as none of the kept fields is
/// one. Memory holds one record.
struct JSONArrayRecords: JSONEventHandler {
    var record: (_ fields: [String: JSONScalar], _ at: JSONPath) throws -> Void
    let flatteningOneLevel: Bool
    private var fields: [String: JSONScalar] = [:]

    init(flatteningOneLevel: Bool, record: @escaping (_ fields: [String: JSONScalar], _ at: JSONPath) throws -> Void) {
        self.flatteningOneLevel = flatteningOneLevel
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
        if flatteningOneLevel, path.depth == 3, case .key(let outer) = path.steps[1], let key = path.lastKey {
            fields[outer + "." + key] = value
        }
    }

    /// Runs the scanner over `file`; a malformed place becomes an `ImportError` naming the file and the place.
    static func read(_ file: DownloadFile, download: String, flatteningOneLevel: Bool = false,
                     record: @escaping (_ fields: [String: JSONScalar], _ at: JSONPath) throws -> Void) throws {
        var scanner = JSONEventScanner(handler: JSONArrayRecords(flatteningOneLevel: flatteningOneLevel, record: record))
        do {
            try file.read { try scanner.feed($0) }
            try scanner.finish()
        } catch let problem as JSONProblem {
            throw ImportError(file: "\(download)/\(file.path)", problem: problem.description)
        }
    }
}

extension JSONPath {
    /// The path of `key` inside the record at this path (`[2].weight.timestampGMT`), for messages.
    func member(_ key: String) -> JSONPath {
        JSONPath(steps: steps + key.split(separator: ".").map { .key(String($0)) })
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
