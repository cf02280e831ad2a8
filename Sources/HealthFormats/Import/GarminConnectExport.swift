import Foundation
import HealthCore
import HealthModel
import ZIPFoundation

/// Garmin Connect's "Export your data" archive (the zip Garmin emails, or its folder once unzipped): everything
/// under `DI_CONNECT/`. hmon reads
///
/// - the FIT files the devices uploaded, zipped again inside it (`DI-Connect-Uploaded-Files/*.zip`), through the
///   Garmin FIT import (`GarminFIT`): weigh-ins, blood pressures, HRV status and nights, on the devices the
///   files name, with the same ids a watch's folder gives them;
/// - its own JSON (`GarminConnectWellness`): weigh-ins, nights as Garmin's totals, and each day's steps,
///   active energy and resting heart rate, on a device named "Garmin Connect".
///
/// A JSON weigh-in that an uploaded FIT file also holds (the same minute, the same weight to 0.05 kg) is the
/// same measurement, and so is a JSON night whose window overlaps a night of an uploaded sleep file: the FIT
/// file's is kept, with the device's name (and, for a night, its stages against the clock, which the JSON's
/// totals lack). Everything is read and checked before any reading leaves: a broken file stops the import
/// with its name and place, and nothing of the archive is kept.
enum GarminConnectExport {
    static let top = "DI_CONNECT/"
    static let uploads = "DI_CONNECT/DI-Connect-Uploaded-Files/"
    /// More than any part of the uploads Garmin writes (they come in parts of a few hundred MB): a bigger entry
    /// is no upload part, and inflating it could fill the disk.
    static let largestUploadPart: Int64 = 8 << 30

    /// A file's path from `DI_CONNECT/` on, wherever that folder sits in the zip (a zip made again of the
    /// unzipped export holds it one folder down); nil for a file outside it.
    static func exportPath(_ file: DownloadFile) -> String? {
        if file.path.hasPrefix(top) { return file.path }
        return file.path.range(of: "/" + top).map { String(file.path[file.path.index(after: $0.lowerBound)...]) }
    }

    static func isExport(_ files: [DownloadFile]) -> Bool {
        files.contains { exportPath($0) != nil }
    }

    /// Reads the archive's files, of the zip or of its unzipped folder, and hands on each kept reading.
    static func read(_ files: [DownloadFile], name: String, timeZone: TimeZone,
                     emit: (ImportedReading) throws -> Void) throws -> ImportTally {
        var tally = ImportTally()
        var nights = SleepNights()
        var fitReadings: [ImportedReading] = []
        var ownReadings: [ImportedReading] = []
        var ownNights: [SleepSummary] = []
        for file in files where !file.isMacMetadata {
            guard let path = exportPath(file) else { continue }
            if path.hasPrefix(uploads), file.name.lowercased().hasSuffix(".zip") {
                fitReadings += try uploadedFITFiles(file, name: name, nights: &nights, tally: &tally)
            } else if path.hasPrefix(uploads), GarminFIT.isFITFile(file) {
                fitReadings += try GarminFIT.collect([file], name: name, nights: &nights, tally: &tally)
            } else if GarminConnectWellness.isBiometricsFile(file) {
                ownReadings += try GarminConnectWellness.weighIns(file, download: name, tally: &tally)
            } else if GarminConnectWellness.isSleepFile(file) {
                ownNights += try GarminConnectWellness.nights(file, download: name, tally: &tally)
            } else if GarminConnectWellness.isDaySummaryFile(file) {
                ownReadings += try GarminConnectWellness.days(file, download: name, zone: timeZone, tally: &tally)
            } else {
                tally.skippedKinds["Garmin Connect \(folder(of: path)) file", default: 0] += 1
            }
        }
        let fitWeighIns = fitReadings.filter { $0.kind == .weight }
        for reading in fitReadings { try emit(reading) }
        for reading in ownReadings {
            if reading.kind == .weight, fitWeighIns.contains(where: { sameWeighIn($0, reading) }) {
                tally.skip(.weight, "Garmin Connect weigh-in also in an uploaded FIT file (the file's is kept)")
                continue
            }
            tally.kept[reading.kind, default: 0] += 1
            try emit(reading)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let watched = nights.nights(calendar: calendar).compactMap { night in night.startMs.map { (start: $0, end: night.endMs) } }
        for night in ownNights {
            if watched.contains(where: { $0.start < night.endMs && night.startMs < $0.end }) {
                tally.skip(.sleep, "Garmin Connect night also in an uploaded sleep file (the file's is kept)")
                continue
            }
            nights.add(night)
        }
        try SleepNightReadings.emit(nights, timeZone: timeZone, tally: &tally, emit: emit)
        return tally
    }

    /// `DI-Connect-Wellness` of `DI_CONNECT/DI-Connect-Wellness/…`, for the summary's count of files not read.
    private static func folder(of path: String) -> String {
        let parts = path.dropFirst(top.count).split(separator: "/")
        return parts.count > 1 ? String(parts[0]) : String(parts.last ?? "")
    }

    /// One measurement seen twice: within a minute, the same weight to the scale's 0.05 kg.
    private static func sameWeighIn(_ one: ImportedReading, _ other: ImportedReading) -> Bool {
        abs(one.timestamp - other.timestamp) <= 60_000 && abs(one.value - other.value) <= 0.05 + 1e-9
    }

    /// The FIT files of one uploads zip, inflated into a folder only this user can enter (a zip is read from a
    /// file), which is removed however the reading ends.
    private static func uploadedFITFiles(_ file: DownloadFile, name: String, nights: inout SleepNights,
                                         tally: inout ImportTally) throws -> [ImportedReading] {
        let place = "\(name)/\(file.path)"
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("hmon-garmin-\(UUID().uuidString)")
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ImportError(file: place, problem: "cannot make a temporary folder to inflate it into: \(error.localizedDescription)")
        }
        defer { try? manager.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("uploads.zip")
        guard manager.createFile(atPath: copy.path, contents: nil), let handle = try? FileHandle(forWritingTo: copy) else {
            throw ImportError(file: place, problem: "cannot write a temporary copy of it")
        }
        var written: Int64 = 0
        do {
            defer { try? handle.close() }
            try file.read { chunk in
                written += Int64(chunk.count)
                guard written <= largestUploadPart else {
                    throw ImportError(file: place, problem: "inflates to more than \(largestUploadPart >> 30) GB, more than any part of Garmin's uploads: is the archive damaged?")
                }
                try handle.write(contentsOf: Data(chunk))
            }
        }
        let archive: Archive
        do {
            archive = try Archive(url: copy, accessMode: .read)
        } catch {
            throw ImportError(file: place, problem: "this zip of uploaded files is truncated or damaged (its directory cannot be read): download the export again")
        }
        let inside = DownloadFile.files(in: archive, name: place)
        return try GarminFIT.collect(inside, name: place, nights: &nights, tally: &tally)
    }
}
