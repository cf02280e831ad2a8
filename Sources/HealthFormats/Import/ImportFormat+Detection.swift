import Foundation
import HealthCore
import HealthModel

extension ImportFormat {
    /// How many bytes `detect` wants to see.
    package static let headLength = 4096

    /// The first 16 bytes of every SQLite database file.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Recognizes a format from the start of a file; nil when it is none hmon reads.
    public static func detect(_ head: [UInt8]) -> ImportFormat? {
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .appleHealthZip }
        if GarminFIT.looksLikeFIT(head) { return .garminFIT }
        // Any SQLite database: the reader then says when it is not Gadgetbridge's.
        if head.starts(with: sqliteHeader) { return .gadgetbridge }
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        text = text.drop(while: isSpace)
        for marker in ["<?xml", "<!DOCTYPE HealthData", "<HealthData"] where text.starts(with: marker.utf8) {
            return .appleHealthXML
        }
        // An object: hmon's own JSON export is an array, so this can only be the app's payload (or nothing
        // hmon reads, which the reader then says where).
        if text.first == UInt8(ascii: "{") { return .healthAutoExportJSON }
        if text.starts(with: (CSVWeightImporter.samsungWeightLine + ",").utf8) { return .samsungHealthCSV }
        if text.starts(with: "#Version:".utf8) || text.starts(with: "#date;weight".utf8) { return .libraCSV }
        guard let header = firstCSVRow(text),
              let importer = CSVWeightImporter(header: header, timeZone: TimeZone(identifier: "UTC")!) else { return nil }
        return importer.layout == .withings ? .withingsCSV : .openScaleCSV
    }

    private static func firstCSVRow(_ text: ArraySlice<UInt8>) -> [String]? {
        // The first line ends at an LF, or at a CR in files with old-Mac line endings.
        guard let newline = text.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) ?? (text.count < headLength ? text.endIndex : nil)
        else { return nil }
        var reader = CSVReader(delimiter: CSVReader.delimiter(ofFileStartingWith: text))
        var header: [String]?
        let line = Array(text[..<newline])
        try? line.withUnsafeBytes { bytes in
            try reader.feed(bytes) { row, _ in header = row }
            try reader.finish { row, _ in header = row }
        }
        return header
    }
}
