import Foundation
import HealthCore
import HealthModel

/// Reads `hmon export`'s files back (`hmon import`): the CSV with its header, or the JSON array.
public enum ExportReader {
    /// Which of hmon's own formats a file starting with `head` is; nil for any other file.
    public static func detect(_ head: [UInt8]) -> ImportFormat? {
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        let header = ExportFormat.csvHeader.joined(separator: ",")
        if text.starts(with: Array(header.utf8)) { return .hmonCSV }
        let start = String(decoding: text.prefix(200), as: UTF8.self).filter { !$0.isWhitespace }
        if start == "[]" || start.hasPrefix("[{\"device\":") || start.hasPrefix("[{\"device_type\":") { return .hmonJSON }
        return nil
    }

    /// The rows of the file, in order, held whole: for small files and tests; `hmon import` streams them (`stream`).
    public static func read(_ url: URL) throws -> (format: ImportFormat, rows: [ExportRow]) {
        var rows: [ExportRow] = []
        let format = try stream(url) { rows.append($0) }
        return (format, rows)
    }

    /// Hands each row of the file to `onRow`, in order, and returns the file's format. Throws
    /// `ImportError` naming the line (CSV) or row (JSON) and what is wrong; errors `onRow` throws pass through.
    /// The file is read a chunk at a time and each format's rows are capped (`CSVReader`'s fields,
    /// `JSONArrayObjects`' objects), so memory stays flat at any size and a hostile file is refused at its
    /// row without being held whole.
    @discardableResult
    public static func stream(_ url: URL, onRow: (ExportRow) throws -> Void) throws -> ImportFormat {
        let name = url.lastPathComponent
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw ImportError(file: name, problem: "cannot read the file: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        func chunk() throws -> Data {
            do {
                return try handle.read(upToCount: chunkBytes) ?? Data()
            } catch {
                throw ImportError(file: name, problem: "cannot read the file: \(error.localizedDescription)")
            }
        }
        let first = try chunk()
        guard let format = detect(Array(first.prefix(512))) else {
            throw ImportError(file: name, problem: "not an hmon export: its first line is not \(ExportFormat.csvHeader.joined(separator: ","))")
        }
        if format == .hmonCSV {
            try csvRows(first: first, next: chunk, name: name, onRow: onRow)
        } else {
            try jsonRows(first: first, next: chunk, name: name, onRow: onRow)
        }
        return format
    }

    /// How much of the file is read at a time.
    static let chunkBytes = 1 << 20

    private static func csvRows(first: Data, next: () throws -> Data, name: String, onRow: (ExportRow) throws -> Void) throws {
        var reader = CSVReader(delimiter: UInt8(ascii: ","))
        var sawHeader = false
        func onFields(_ fields: [String], _ line: Int) throws {
            if !sawHeader {
                sawHeader = true
                return
            }
            if fields.count == 1, fields[0].isEmpty { return }
            guard fields.count == ExportFormat.csvHeader.count else {
                throw ImportError(file: name, line: line,
                                  problem: "\(fields.count) columns where the header has \(ExportFormat.csvHeader.count)")
            }
            try onRow(try row(time: fields[0], device: fields[1], deviceType: fields[2], field: fields[3], value: .text(fields[4]),
                              unit: fields[5], readingID: fields[6], place: (name, line)))
        }
        do {
            var data = first
            while !data.isEmpty {
                try data.withUnsafeBytes { bytes in try reader.feed(bytes, onFields) }
                data = try next()
            }
            try reader.finish(onFields)
        } catch let problem as ImportLineProblem {
            throw ImportError(file: name, line: problem.line, problem: problem.message)
        }
    }

    private static func jsonRows(first: Data, next: () throws -> Data, name: String, onRow: (ExportRow) throws -> Void) throws {
        var splitter = JSONArrayObjects()
        func onObject(_ bytes: [UInt8], _ index: Int) throws {
            var scanner = JSONEventScanner(handler: ExportJSONRowHandler())
            let decoded = try? bytes.withUnsafeBytes { raw -> ExportFormat.JSONRow? in
                try scanner.feed(raw)
                try scanner.finish()
                return scanner.handler.row
            }
            guard let object = decoded ?? nil else {
                throw ImportError(file: name, line: index + 1,
                                  problem: "not a row of the JSON hmon export writes (an object with time, device, device_type, field, value, unit and reading_id)")
            }
            try onRow(try row(time: object.time, device: object.device, deviceType: object.device_type, field: object.field,
                              value: object.value, unit: object.unit, readingID: object.reading_id, place: (name, index + 1)))
        }
        do {
            var data = first
            while !data.isEmpty {
                try data.withUnsafeBytes { bytes in try splitter.feed(bytes, onObject) }
                data = try next()
            }
            try splitter.finish()
        } catch let problem as JSONArrayObjects.Problem {
            throw ImportError(file: name, line: problem.row + 1, problem: problem.message)
        }
    }

    /// A row as read; a CSV value stays text until the device type's manifest says what the field holds.
    private static func row(time: String, device: String, deviceType: String, field: String, value: FieldValue, unit: String,
                            readingID: String, place: (file: String, line: Int)) throws -> ExportRow {
        func problem(_ text: String) -> ImportError { ImportError(file: place.file, line: place.line, problem: text) }
        guard let ts = ExportTime.parse(time) else {
            throw problem("time \"\(time.prefix(40))\" is not an ISO 8601 instant (a real calendar date and time, an offset within ±14:00) "
                          + "such as 2026-11-20T07:30:00.000+01:00")
        }
        if device.isEmpty { throw problem("the device is empty") }
        if deviceType.isEmpty { throw problem("the device type is empty") }
        if field.isEmpty { throw problem("the field is empty") }
        if readingID.isEmpty { throw problem("the reading_id is empty: each row needs the id of its reading") }
        return ExportRow(ts: ts, device: device, deviceType: deviceType, field: field, value: value, unit: unit, readingID: readingID)
    }
}
