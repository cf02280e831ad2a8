import Foundation
import HealthCore
import HealthModel

/// Reads one object of `hmon export --format json` (a flat object of strings and one number or string
/// `value`) with `JSONEventScanner`, the scanner Health Auto Export's payloads go through.
///
/// `JSONDecoder` did this before: per row it cost about as much as the rest of the import together
/// (the JSON export came back at 0.65 of the Apple Health import's readings a second, the CSV at 1.0;
/// release build, `Benchmarks/export-roundtrip-bench.sh`). What it accepted is accepted here: unknown keys
/// are ignored, and a key of the wrong type, or a missing one, makes the object no row of the export.
struct ExportJSONRowHandler: JSONEventHandler {
    private(set) var time, device, deviceType, field, unit, readingID: String?
    private(set) var value: FieldValue?
    private(set) var wrongType = false

    mutating func open(_ container: JSONContainer, at path: JSONPath) throws {
        if path.depth > 0 { wrongType = true }
    }

    mutating func close(_ container: JSONContainer, at path: JSONPath) throws {}

    mutating func scalar(_ scalar: JSONScalar, at path: JSONPath) throws {
        guard path.depth == 1, let key = path.lastKey else { return }
        let text: String? = if case .string(let text) = scalar { text } else { nil }
        switch key {
        case "time": time = text
        case "device": device = text
        case "device_type": deviceType = text
        case "field": field = text
        case "unit": unit = text
        case "reading_id": readingID = text
        case "value":
            switch scalar {
            case .string(let text): value = .text(text)
            case .number(let digits): value = Double(digits).map(FieldValue.number)
            case .bool, .null: value = nil
            }
        default: return
        }
        if text == nil, key != "value" { wrongType = true }
    }

    /// The row, or nil when the object is not one.
    var row: ExportFormat.JSONRow? {
        guard !wrongType, let time, let device, let deviceType, let field, let value, let unit, let readingID else { return nil }
        return ExportFormat.JSONRow(time: time, device: device, device_type: deviceType, field: field, value: value, unit: unit,
                                    reading_id: readingID)
    }
}
