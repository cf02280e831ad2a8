import Foundation
import HealthModel

/// One reading of the file: its rows put together, with the line of its first row.
public struct ExportedReading: Sendable {
    public var first: ExportRow
    public var line: Int
    public var fields: [(name: String, value: FieldValue)]
}

/// How both engines read an `hmon export` back before writing it: rows put together into readings,
/// values typed by the manifest, each reading's kind for the summary.
public enum ExportedReadings {
    /// The file's rows grouped by `reading_id`, in file order; refuses a reading whose rows disagree.
    public static func group(_ rows: [ExportRow], file: String) throws -> [ExportedReading] {
        var readings: [ExportedReading] = []
        var position: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            let line = index + 2  // after the header (CSV) or the opening bracket (JSON)
            if let at = position[row.readingID] {
                let first = readings[at].first
                guard first.ts == row.ts, first.device == row.device, first.deviceType == row.deviceType else {
                    throw ImportError(file: file, line: line,
                                      problem: "reading \(row.readingID) has rows with different times or devices: each reading has one")
                }
                if readings[at].fields.contains(where: { $0.name == row.field }) {
                    throw ImportError(file: file, line: line, problem: "reading \(row.readingID) has two rows for \(row.field)")
                }
                readings[at].fields.append((row.field, row.value))
            } else {
                position[row.readingID] = readings.count
                readings.append(ExportedReading(first: row, line: line, fields: [(row.field, row.value)]))
            }
        }
        return readings
    }

    /// The kind an import summary counts a reading under; nil for none (counted as "other"). An RMSSD is
    /// "HRV from beats" only when it was computed from beats, not measured by Welltory or typed in.

    public static func kind(of data: [String: FieldValue]) -> ReadingKind? {
        ReadingKind.allCases.first { kind in
            data[kind.field] != nil
                && (kind != .heartRateVariabilityFromBeats || data[Field.source] == .text(HRVSource.beats.rawValue))
                && (kind != .heartRateVariabilityBeatsRefused || data[Field.beatsRefused] != nil)
        }
    }

    /// A CSV value is text until here: a number field's value must read as a number.
    public static func typed(_ value: FieldValue, field: FieldSpec?, name: String, problem: (String) -> ImportError) throws -> FieldValue {
        guard let field, field.type != .string, case .text(let text) = value else { return value }
        guard let number = Double(text), number.isFinite else { throw problem("\(name) \"\(text.prefix(40))\" is not a number") }
        return .number(number)
    }
}
