import Foundation
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

    /// The rows of the file, in order. Throws `ImportError` naming the line (CSV) or row (JSON) and what is wrong.
    public static func read(_ url: URL) throws -> (format: ImportFormat, rows: [ExportRow]) {
        let name = url.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ImportError(file: name, problem: "cannot read the file: \(error.localizedDescription)")
        }
        guard let format = detect(Array(data.prefix(512))) else {
            throw ImportError(file: name, problem: "not an hmon export: its first line is not \(ExportFormat.csvHeader.joined(separator: ","))")
        }
        return (format, format == .hmonCSV ? try csvRows(data, name: name) : try jsonRows(data, name: name))
    }

    private static func csvRows(_ data: Data, name: String) throws -> [ExportRow] {
        var reader = CSVReader(delimiter: UInt8(ascii: ","))
        var rows: [ExportRow] = []
        var sawHeader = false
        func onRow(_ fields: [String], _ line: Int) throws {
            if !sawHeader {
                sawHeader = true
                return
            }
            if fields.count == 1, fields[0].isEmpty { return }
            guard fields.count == ExportFormat.csvHeader.count else {
                throw ImportError(file: name, line: line,
                                  problem: "\(fields.count) columns where the header has \(ExportFormat.csvHeader.count)")
            }
            rows.append(try row(time: fields[0], device: fields[1], deviceType: fields[2], field: fields[3], value: .text(fields[4]),
                                unit: fields[5], readingID: fields[6], place: (name, line)))
        }
        do {
            try data.withUnsafeBytes { bytes in
                try reader.feed(bytes, onRow)
                try reader.finish(onRow)
            }
        } catch let problem as ImportLineProblem {
            throw ImportError(file: name, line: problem.line, problem: problem.message)
        }
        return rows
    }

    private static func jsonRows(_ data: Data, name: String) throws -> [ExportRow] {
        let objects: [ExportFormat.JSONRow]
        do {
            objects = try JSONDecoder().decode([ExportFormat.JSONRow].self, from: data)
        } catch {
            throw ImportError(file: name, problem: "not the JSON hmon export writes (an array of objects with time, device, device_type, field, value, unit and reading_id)")
        }
        return try objects.enumerated().map { index, object in
            try row(time: object.time, device: object.device, deviceType: object.device_type, field: object.field, value: object.value,
                    unit: object.unit, readingID: object.reading_id, place: (name, index + 2))
        }
    }

    /// A row as read; a CSV value stays text until the device type's manifest says what the field holds.
    private static func row(time: String, device: String, deviceType: String, field: String, value: FieldValue, unit: String,
                            readingID: String, place: (file: String, line: Int)) throws -> ExportRow {
        func problem(_ text: String) -> ImportError { ImportError(file: place.file, line: place.line, problem: text) }
        guard let ts = ExportTime.parse(time) else {
            throw problem("time \"\(time.prefix(40))\" is not an ISO 8601 instant such as 2026-11-20T07:30:00.000+01:00")
        }
        if device.isEmpty { throw problem("the device is empty") }
        if deviceType.isEmpty { throw problem("the device type is empty") }
        if field.isEmpty { throw problem("the field is empty") }
        if readingID.isEmpty { throw problem("the reading_id is empty: each row needs the id of its reading") }
        return ExportRow(ts: ts, device: device, deviceType: deviceType, field: field, value: value, unit: unit, readingID: readingID)
    }
}
