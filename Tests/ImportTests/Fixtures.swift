import Foundation
import ZIPFoundation
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// A temporary folder for one test's files, removed when the test ends.
final class TempFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// A zip as the Health app makes it: the export under `apple_health_export/`, deflated.
    func zip(_ name: String, entries: [(String, String)]) throws -> URL {
        let file = url.appendingPathComponent(name)
        let archive = try Archive(url: file, accessMode: .create)
        for (path, text) in entries {
            let data = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return file
    }
}

/// Reads a file with the importer and collects what it hands over.
func readAll(_ url: URL, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws -> (ImportResult, [ImportedReading]) {
    var readings: [ImportedReading] = []
    let result = try Importer.read(url, timeZone: timeZone) { readings.append($0) }
    return (result, readings)
}

/// The message an import fails with.
func importFailure(_ url: URL) -> String? {
    do {
        _ = try readAll(url)
        return nil
    } catch {
        return "\(error)"
    }
}

/// ms since the epoch of an ISO 8601 instant, for expectations.
func ms(_ iso: String) -> Int64 {
    let formatter = ISO8601DateFormatter()
    return Int64(formatter.date(from: iso)!.timeIntervalSince1970 * 1000)
}

/// Builds Apple Health export XML with the real export's prologue (a DOCTYPE with an internal subset).
enum AppleHealthXML {
    static let prologue = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 13 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ATTLIST Record
      type          CDATA #REQUIRED
      unit          CDATA #IMPLIED
      value         CDATA #IMPLIED
    >
    <!-- a ]> inside a comment, and a quoted one: -->
    <!ENTITY % trap "]>">
    ]>

    """

    static func document(me: String = "", _ body: String) -> String {
        prologue + """
        <HealthData locale="en_US">
         <ExportDate value="2024-03-01 10:00:00 +0100"/>
        \(me)
        \(body)
        </HealthData>

        """
    }

    static func record(_ type: String, _ value: String, unit: String, at date: String,
                       source: String = "Apple Watch", children: String? = nil) -> String {
        let attributes = """
        type="HKQuantityTypeIdentifier\(type)" sourceName="\(source)" sourceVersion="10.1" \
        device="&lt;&lt;HKDevice: 0x283e2f0c0&gt;, name:Apple Watch, manufacturer:Apple Inc.&gt;" unit="\(unit)" \
        creationDate="\(date)" startDate="\(date)" endDate="\(date)" value="\(value)"
        """
        guard let children else { return " <Record \(attributes)/>" }
        return " <Record \(attributes)>\n\(children)\n </Record>"
    }
}
