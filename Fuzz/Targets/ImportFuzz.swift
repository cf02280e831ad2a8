import Foundation
import HealthCore
import HealthFormats
import HealthModel

/// Feeds inputs to the importer as files, the way `hmon import` reads them.
enum ImportFuzz {
    nonisolated(unsafe) private static var folder: URL?

    static func prepare() throws {
        guard folder == nil else { return }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-fuzz-\(getpid())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        folder = url
    }

    /// The input as an export.xml. A zip's signature is left out: the zip library is not ours to fuzz
    /// here, and a fuzzer that found it would spend its time there instead of in the scanner.
    static func readXML(_ input: [UInt8]) throws(FuzzFinding) {
        guard !input.starts(with: [0x50, 0x4B]) else { return }
        try read(input, named: "export.xml")
    }

    /// The input's first byte picks a header the importer recognizes, so that the fuzzer explores rows
    /// rather than spend its time finding a header; the rest is the file's body.
    static func readCSV(_ input: [UInt8]) throws(FuzzFinding) {
        let headers = [
            "Date,\"Weight (kg)\",\"Fat mass (kg)\",\"Bone mass (kg)\",\"Muscle mass (kg)\",\"Hydration (kg)\",Comments\n",
            "\"dateTime\",\"weight\",\"fat\",\"water\",\"muscle\",\"comment\"\n",
            "Datum;Gewicht\n",
            "",
        ]
        guard let first = input.first else { return }
        try read(Array(headers[Int(first) % headers.count].utf8) + input.dropFirst(), named: "weight.csv")
    }

    /// An even first byte: the rest is the whole file. An odd one: the rest is the records, under a header and
    /// followed by a CRC that match them, so that the fuzzer explores definitions and data messages rather
    /// than spend its time finding a CRC.
    static func readFIT(_ input: [UInt8]) throws(FuzzFinding) {
        guard let first = input.first else { return }
        let body = Array(input.dropFirst())
        guard first % 2 == 1 else { return try read(body, named: "input.fit") }
        let size = UInt32(body.count)
        var file: [UInt8] = [12, 0x20, 0x52, 0x08] + (0..<4).map { UInt8((size >> (8 * $0)) & 0xFF) } + Array(".FIT".utf8)
        file += body
        let crc = FITCRC.of(file)
        try read(file + [UInt8(crc & 0xFF), UInt8(crc >> 8)], named: "input.fit")
    }

    /// The input's first byte picks which of the JSON files of Garmin Connect's export the rest is (weigh-ins,
    /// nights or days), written alone into an unzipped export's folder, so the fuzzer explores records rather
    /// than the zip library, which is not ours to fuzz here.
    static func readGarminConnect(_ input: [UInt8]) throws(FuzzFinding) {
        guard let first = input.first, let folder else { return }
        let files = ["DI-Connect-Wellness/1_userBioMetrics.json", "DI-Connect-Wellness/2026-01-01_2026-02-01_1_sleepData.json",
                     "DI-Connect-Aggregator/UDSFile_2026-01-01_2026-02-01.json"]
        let export = folder.appendingPathComponent("garmin-export")
        let file = export.appendingPathComponent("DI_CONNECT/" + files[Int(first) % files.count])
        do {
            try? FileManager.default.removeItem(at: export)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(input.dropFirst()).write(to: file)
        } catch {
            fatalError("cannot write the fuzz input to \(file.path): \(error)")
        }
        try importing(export)
    }

    /// The input's first byte picks JSON or CSV and the format's opening (`[{"device":` or the header), so
    /// the fuzzer explores rows; the rest is the file's body, read back as `hmon import` reads an export.
    static func readExport(_ input: [UInt8]) throws(FuzzFinding) {
        guard let first = input.first, let folder else { return }
        let json = first % 2 == 0
        let opening = json ? "[{\"device\":" : "time,device,device_type,field,value,unit,reading_id\n"
        let file = folder.appendingPathComponent(json ? "export.json" : "export.csv")
        do {
            try Data(Array(opening.utf8) + input.dropFirst()).write(to: file)
        } catch {
            fatalError("cannot write the fuzz input to \(file.path): \(error)")
        }
        do {
            let (_, rows) = try ExportReader.read(file)
            if let row = rows.first(where: { $0.readingID.isEmpty || $0.device.isEmpty }) {
                throw FuzzFinding("a row without its reading id or device was read: \(row)")
            }
        } catch let finding as FuzzFinding {
            throw finding
        } catch is ImportError {
            // Refused, naming the file and the row: the promise kept.
        } catch {
            throw FuzzFinding("reading the export failed with \(type(of: error)) instead of an ImportError: \(error)")
        }
    }

    static func read(_ bytes: [UInt8], named name: String) throws(FuzzFinding) {
        guard let folder else { preconditionFailure("FuzzTarget.prepare() was not called") }
        let file = folder.appendingPathComponent(name)
        do {
            try Data(bytes).write(to: file)
        } catch {
            fatalError("cannot write the fuzz input to \(file.path): \(error)")
        }
        try importing(file)
    }

    /// Imports `file` (or folder): readings with finite figures, or an `ImportError` naming where.
    private static func importing(_ file: URL) throws(FuzzFinding) {
        do {
            var kept = 0
            _ = try Importer.read(file, timeZone: TimeZone(identifier: "UTC")!) { reading in
                guard reading.value.isFinite else { throw FuzzFinding("a reading with a non-finite value: \(reading)") }
                kept += 1
            }
        } catch let finding as FuzzFinding {
            throw finding
        } catch is ImportError {
            // A refused file, with a message that names where: the promise kept.
        } catch {
            throw FuzzFinding("the import failed with \(type(of: error)) instead of an ImportError: \(error)")
        }
    }
}
