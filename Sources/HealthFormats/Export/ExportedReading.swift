import Foundation
import HealthCore
import HealthModel

/// One reading of the file: its rows put together, with the line of its first row.
public struct ExportedReading: Sendable {
    public var first: ExportRow
    public var line: Int
    public var fields: [(name: String, value: FieldValue)]
}

/// How both engines read an `hmon export` back before writing it: values typed by the manifest, each
/// reading's kind for the summary (rows are put together by `ExportedReadingGrouper`).
public enum ExportedReadings {
    /// The kind an import summary counts a reading under; nil for none (counted as "other"). An RMSSD is
    /// "HRV from beats" only when it was computed from beats, not measured by Welltory or typed in.

    public static func kind(of data: [String: FieldValue]) -> ReadingKind? {
        ReadingKind.importedKinds.first { kind in
            data[kind.field] != nil
                && (kind != .heartRateVariabilityFromBeats || data[Field.source] == .text(HRVSource.beats.rawValue))
                && (kind != .heartRateVariabilityBeatsRefused || data[Field.beatsRefused] != nil)
        }
    }

    /// A CSV value is text until here: a number field's value must read as a number.
    public static func typed(_ value: FieldValue, field: FieldSpec?, name: String, problem: (String) -> ImportError) throws -> FieldValue {
        guard let field, field.type != .string, case .text(let text) = value else { return value }
        // Decimal only, as every importer reads numbers (`ByteParsing.double`): `Double("0x40")` is 64.
        guard let number = Array(text.utf8).withUnsafeBufferPointer(ByteParsing.double), number.isFinite else {
            throw problem("\(name) \"\(text.prefix(40))\" is not a number (write it in decimal, such as 72.4)")
        }
        return .number(number)
    }
}
