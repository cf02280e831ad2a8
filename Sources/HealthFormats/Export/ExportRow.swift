import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// One line of `hmon export`: one field of one reading. A reading of several fields (a scale's weight
/// and body fat) is several rows with the same `readingID`, time and device, which `hmon import` puts
/// back together.
public struct ExportRow: Sendable, Equatable, Codable {
    /// When the reading was taken, ms since the epoch (written as ISO 8601 with the local offset).
    public var ts: Int64
    /// The device's name and its type's name ("Bathroom scale", "Withings Device"): enough to find or
    /// make the device again in another store.
    public var device: String
    public var deviceType: String
    public var field: String
    public var value: FieldValue
    /// The manifest's unit ("kg", "kcal"); empty for unitless fields.
    public var unit: String
    /// The reading's id, kept across an export and an import, so importing the same export twice adds nothing.
    public var readingID: String

    public init(ts: Int64, device: String, deviceType: String, field: String, value: FieldValue, unit: String, readingID: String) {
        self.ts = ts
        self.device = device
        self.deviceType = deviceType
        self.field = field
        self.value = value
        self.unit = unit
        self.readingID = readingID
    }

    /// The rows of `readings`, in their order, each reading's fields in its manifest's order.
    public static func rows(of readings: [Message], overview: DevicesOverview, fields: Set<String> = []) -> [ExportRow] {
        let devices = Dictionary(overview.devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let typeNames = Dictionary(overview.deviceTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var rows: [ExportRow] = []
        for reading in readings {
            let manifest = overview.manifests[reading.sdtid]
            let order = manifest?.fields.map(\.name) ?? []
            let names = reading.data.keys.filter { fields.isEmpty || fields.contains($0) }
                .sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
            for name in names {
                rows.append(ExportRow(ts: reading.ts, device: devices[reading.sdid]?.name ?? reading.sdid,
                                      deviceType: typeNames[reading.sdtid] ?? reading.sdtid, field: name, value: reading.data[name]!,
                                      unit: manifest?.field(name)?.unit ?? "", readingID: reading.mid))
            }
        }
        return rows
    }
}

/// The two ways `hmon export` writes rows, and reads them back for `hmon import`.
public enum ExportFormat: String, Sendable, CaseIterable {
    case csv, json

    /// The CSV header, which is also how `hmon import` recognizes the file.
    public static let csvHeader = ["time", "device", "device_type", "field", "value", "unit", "reading_id"]

    /// The whole file: CSV with a header line, or a JSON array of one object per row (one per line).
    public func text(_ rows: [ExportRow], timeZone: TimeZone = .current) -> String {
        switch self {
        case .csv:
            var lines = [Self.csvHeader.joined(separator: ",")]
            for row in rows {
                let value: String = switch row.value {
                case .number(let n): Self.number(n)
                case .text(let text): text
                }
                lines.append([ExportTime.format(row.ts, timeZone: timeZone), row.device, row.deviceType, row.field, value, row.unit,
                              row.readingID].map(Self.csvField).joined(separator: ","))
            }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let objects = rows.map { row in
                let object = JSONRow(time: ExportTime.format(row.ts, timeZone: timeZone), device: row.device, device_type: row.deviceType,
                                     field: row.field, value: row.value, unit: row.unit, reading_id: row.readingID)
                return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
            }
            return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        }
    }

    /// The keys of a JSON row, as the CSV header names its columns.
    struct JSONRow: Codable {
        var time: String
        var device: String
        var device_type: String
        var field: String
        var value: FieldValue
        var unit: String
        var reading_id: String
    }

    /// A number as written: whole numbers without decimals, any other in the shortest form that reads
    /// back as exactly the same `Double`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(rounding: value)) }
        return "\(value)"
    }

    /// RFC 4180: quoted when it holds a comma, a quote, a line break or edge spaces; quotes doubled.
    static func csvField(_ text: String) -> String {
        let needsQuotes = text.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || text.first == " " || text.last == " "
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
