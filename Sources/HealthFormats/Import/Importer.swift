import Foundation
import HealthCore
import HealthModel
import CheckedNumbers
import ZIPFoundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemClose = Glibc.close
#elseif canImport(Darwin)
private let systemClose = Darwin.close
#endif

/// Reads an export file from start to end and hands each kept reading to `reading`, in file order.
///
/// Memory does not grow with the file: the file (or the zip entry, as it inflates) is read in 1 MB
/// chunks and nothing of the export is kept beyond the current element. Throws `ImportError` (with
/// file, line and column) at the first malformed place; errors thrown by `reading` pass through.
/// It writes nothing: the caller decides what to do with the readings (see `LocalStore.importFile`).
public enum Importer {
    static let chunkSize = 1 << 20

    public static func read(_ url: URL, timeZone: TimeZone = .current, options: ImportOptions = ImportOptions(),
                            progress: ((ImportProgress) -> Void)? = nil,
                            reading: @escaping (ImportedReading) throws -> Void) throws -> ImportResult {
        let name = url.lastPathComponent
        if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
            guard options.columns.isEmpty else {
                throw ImportError(file: name, problem: "--columns names the columns of one CSV file, and this is a folder")
            }
            // The export's own folder given rather than the one holding it: its files are under DI_CONNECT/.
            let files = name == "DI_CONNECT" ? DownloadFile.files(in: url).map { DownloadFile(path: "DI_CONNECT/" + $0.path, read: $0.read) }
                : DownloadFile.files(in: url)
            if FitbitTakeout.isTakeout(files) {
                let tally = try FitbitTakeout.read(files, name: name, timeZone: timeZone, options: options, emit: reading)
                return ImportResult(format: .fitbitTakeout, tally: tally, profile: ImportedProfile())
            }
            if GarminConnectExport.isExport(files) {
                let tally = try GarminConnectExport.read(files, name: name, timeZone: timeZone, emit: reading)
                return ImportResult(format: .garminConnectExport, tally: tally, profile: ImportedProfile())
            }
            if files.contains(where: GarminFIT.isFITFile) {
                return ImportResult(format: .garminFIT, tally: try GarminFIT.read(files, name: name, timeZone: timeZone, emit: reading), profile: ImportedProfile())
            }
            return try readSamsungFolder(url, timeZone: timeZone, emit: reading)
        }
        let file = try InputFile(url)
        defer { file.close() }
        let head = try file.head(ImportFormat.headLength)
        let detected = ImportFormat.detect(head)
        if !options.columns.isEmpty, let detected, !detected.isWeightCSV {
            throw ImportError(file: name, problem: "--columns names the columns of a CSV of weigh-ins, and this file reads as \(detected)")
        }
        guard let format = options.columns.isEmpty ? detected : .namedColumnsCSV else {
            throw ImportError(file: name, problem: "not a file hmon can import: expected an Apple Health export (export.zip or export.xml), a Withings weight.csv, an openScale or Libra CSV export, a Samsung Health download (its folder, zip or com.samsung.health.weight CSV), a Fitbit export (its Takeout folder or zip), a Garmin FIT file (or a watch's GARMIN folder), Garmin Connect's export zip or Gadgetbridge's exported database; for another CSV of weigh-ins, name its columns with --columns date=NAME,weight=NAME")
        }
        var kept = 0
        let counting: (ImportedReading) throws -> Void = { value in
            kept += 1
            try reading(value)
        }
        let report: (Int64, Int64) -> Void = { done, total in
            progress?(ImportProgress(bytesRead: done, totalBytes: total, readingsKept: kept))
        }
        switch format {
        case .appleHealthXML:
            let (tally, profile) = try readXML(name: name, timeZone: timeZone, emit: counting) { feed in
                try file.chunks { chunk, done in
                    try feed(chunk)
                    report(done, file.size)
                }
            }
            return ImportResult(format: format, tally: tally, profile: profile)
        case .appleHealthZip:
            file.close()
            return try readZip(url, name: name, timeZone: timeZone, options: options, emit: counting, report: report)
        case .hmonCSV, .hmonJSON:
            throw ImportError(file: name, problem: "an hmon export is read by LocalStore.importExport, not streamed")
        case .fitbitTakeout:
            throw ImportError(file: name, problem: "a Fitbit export is a folder or a zip, not one file: give its folder or its zip")
        case .garminConnectExport:
            throw ImportError(file: name, problem: "Garmin Connect's export is a zip or its folder, not one file: give the zip")
        case .garminFIT:
            // Read more than once (its `file_id` first, then the whole file when its type is one hmon reads).
            let whole = DownloadFile(path: name) { feed in
                try file.rewind()
                try file.chunks { chunk, done in
                    try feed(chunk)
                    report(done, file.size)
                }
            }
            return ImportResult(format: format, tally: try GarminFIT.read([whole], name: name, timeZone: timeZone, emit: counting), profile: ImportedProfile())
        case .gadgetbridge:
            file.close()
            let tally = try Gadgetbridge.read(url, name: name, timeZone: timeZone, emit: counting)
            report(file.size, file.size)
            return ImportResult(format: format, tally: tally, profile: ImportedProfile())
        case .healthAutoExportJSON:
            let tally = try readHealthAutoExport(file, name: name, timeZone: timeZone, emit: counting, report: report)
            return ImportResult(format: format, tally: tally, profile: ImportedProfile())
        case .withingsCSV, .openScaleCSV, .samsungHealthCSV, .libraCSV, .namedColumnsCSV:
            let tally = try readCSV(file, name: name, timeZone: timeZone, options: options, emit: counting, report: report)
            return ImportResult(format: format, tally: tally, profile: ImportedProfile())
        }
    }

    /// Runs the XML scanner over the chunks `produce` feeds it.
    /// Nights of sleep are made in `timeZone` (the day a night belongs to is a local day).
    private static func readXML(name: String, timeZone: TimeZone, emit: @escaping (ImportedReading) throws -> Void,
                                produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void)
    throws -> (ImportTally, ImportedProfile) {
        var scanner = XMLByteScanner(handler: AppleHealthTagHandler(emit: emit))
        do {
            try produce { try scanner.feed($0) }
            try scanner.finish()
        } catch let problem as LocatedProblem {
            throw ImportError(file: name, line: problem.line, column: problem.column, problem: problem.message)
        }
        try SleepNightReadings.emit(scanner.handler.sleep, timeZone: timeZone, tally: &scanner.handler.tally, emit: emit)
        try scanner.handler.emitUnpairedPressures()
        scanner.handler.finish()
        return (scanner.handler.tally, scanner.handler.profile)
    }

    /// The files of every part of the Takeout download `url` is one part of (`TakeoutParts`), `first`
    /// being that part's own.
    private static func takeoutFiles(_ url: URL, first: [DownloadFile]) throws -> [DownloadFile] {
        var files = first
        for part in TakeoutParts.all(of: url) where part.standardizedFileURL != url.standardizedFileURL {
            do {
                files += DownloadFile.files(in: try Archive(url: part, accessMode: .read), name: part.lastPathComponent)
            } catch {
                throw ImportError(file: part.lastPathComponent,
                                  problem: "this part of the Takeout download is truncated or damaged (its directory cannot be read): download it again, or move it away to import the other parts")
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    private static func readZip(_ url: URL, name: String, timeZone: TimeZone, options: ImportOptions,
                                emit: @escaping (ImportedReading) throws -> Void,
                                report: @escaping (Int64, Int64) -> Void) throws -> ImportResult {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw ImportError(file: name, problem: "the zip archive is truncated or damaged (its directory cannot be read)")
        }
        let entries = Array(archive)
        guard let entry = entries.first(where: { $0.path == "apple_health_export/export.xml" })
                ?? entries.first(where: { $0.type == .file && ($0.path == "export.xml" || $0.path.hasSuffix("/export.xml")) })
        else {
            let files = DownloadFile.files(in: archive, name: name)
            if FitbitTakeout.isTakeout(files) {
                let download = try takeoutFiles(url, first: files)
                let tally = try FitbitTakeout.read(download, name: name, timeZone: timeZone, options: options, emit: emit)
                return ImportResult(format: .fitbitTakeout, tally: tally, profile: ImportedProfile())
            }
            if GarminConnectExport.isExport(files) {
                let tally = try GarminConnectExport.read(reportingProgress(of: files, entries: entries, url: url, report: report),
                                                         name: name, timeZone: timeZone, emit: emit)
                report(sizeOnDisk(url), sizeOnDisk(url))  // the files it leaves unread are passed, too
                return ImportResult(format: .garminConnectExport, tally: tally, profile: ImportedProfile())
            }
            if files.contains(where: { isSamsungWeightFile(URL(fileURLWithPath: $0.path)) || SamsungHealthSleep.isSamsungSleepFile($0) }) {
                return ImportResult(format: .samsungHealthCSV, tally: try readSamsung(files, name: name, timeZone: timeZone, emit: emit),
                                    profile: ImportedProfile())
            }
            if let database = Gadgetbridge.databaseEntry(in: entries) {
                let tally = try Gadgetbridge.readZipped(database, of: archive, name: name, timeZone: timeZone, emit: emit)
                return ImportResult(format: .gadgetbridge, tally: tally, profile: ImportedProfile())
            }
            if files.contains(where: GarminFIT.isFITFile) {
                let tally = try GarminFIT.read(files, name: name, timeZone: timeZone, emit: emit)
                report(sizeOnDisk(url), sizeOnDisk(url))
                return ImportResult(format: .garminFIT, tally: tally, profile: ImportedProfile())
            }
            throw ImportError(file: name, problem: "a zip hmon does not know: no apple_health_export/export.xml (Apple Health), no DI_CONNECT folder (Garmin Connect's export), no Fitbit, Samsung Health, Gadgetbridge or Garmin FIT files in it")
        }
        let fileSize = sizeOnDisk(url)
        let compressed = Double(entry.compressedSize)
        let uncompressed = max(1, Double(entry.uncompressedSize))
        var inflated: Int64 = 0
        var checksum = ZipChecksum()
        /// Errors of our own (a malformed export, the store) keep their meaning; anything else thrown
        /// while inflating means the archive itself is damaged.
        struct OwnError: Error { let error: any Error }
        let damaged = ImportError(file: name, problem: "the zip archive is damaged (a checksum does not match): \(entry.path) cannot be read")
        let (tally, profile) = try readXML(name: "\(name): \(entry.path)", timeZone: timeZone, emit: emit) { feed in
            do {
                _ = try archive.extract(entry, bufferSize: chunkSize, skipCRC32: true) { data in
                    do {
                        try data.withUnsafeBytes { bytes in
                            checksum.add(bytes)
                            try feed(bytes)
                        }
                    } catch {
                        throw OwnError(error: error)
                    }
                    inflated += Int64(data.count)
                    report(Int64(rounding: Double(inflated) / uncompressed * compressed, .towardZero), fileSize)
                }
            } catch let own as OwnError {
                throw own.error
            } catch Archive.ArchiveError.invalidCRC32 {
                throw damaged
            } catch {
                throw ImportError(file: name, problem: "the zip archive is damaged or truncated (\(error)): \(entry.path) cannot be read")
            }
            if checksum.value != entry.checksum { throw damaged }
        }
        return ImportResult(format: .appleHealthZip, tally: tally, profile: profile)
    }

    /// `files`, each reporting, once read to its end the first time, the compressed bytes of the zip read so
    /// far: a download of many files (Garmin Connect's runs to gigabytes, most of it the uploads' zips) shows
    /// how far it is.
    private static func reportingProgress(of files: [DownloadFile], entries: [Entry], url: URL,
                                          report: @escaping (Int64, Int64) -> Void) -> [DownloadFile] {
        let total = sizeOnDisk(url)
        // No entry is bigger than the zip: a directory claiming otherwise is held to it, so the sum cannot overflow.
        let compressed = Dictionary(entries.map { ($0.path, min(total, Int64(clamping: $0.compressedSize))) }, uniquingKeysWith: { first, _ in first })
        final class Done { var bytes: Int64 = 0; var paths: Set<String> = [] }
        let done = Done()
        return files.map { file in
            DownloadFile(path: file.path) { feed in
                try file.read(feed)
                guard done.paths.insert(file.path).inserted else { return }
                done.bytes = min(total, done.bytes + (compressed[file.path] ?? 0))
                report(min(done.bytes, total), total)
            }
        }
    }

    private static func sizeOnDisk(_ url: URL) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Two passes over the file (see `HealthAutoExportReader`); a problem is named by its JSON path.
    private static func readHealthAutoExport(_ file: InputFile, name: String, timeZone: TimeZone, emit: @escaping (ImportedReading) throws -> Void,
                                             report: (Int64, Int64) -> Void) throws -> ImportTally {
        do {
            var heads = JSONEventScanner(handler: HealthAutoExportHeads())
            try file.chunks { chunk, _ in try heads.feed(chunk) }
            try heads.finish()
            try file.rewind()
            var scanner = JSONEventScanner(handler: HealthAutoExportReader(heads: heads.handler.heads, emit: emit))
            try file.chunks { chunk, done in
                try scanner.feed(chunk)
                report(done, file.size)
            }
            try scanner.finish()
            try scanner.handler.finish()
            try SleepNightReadings.emit(scanner.handler.sleep, timeZone: timeZone, tally: &scanner.handler.tally, emit: emit)
            return scanner.handler.tally
        } catch let problem as JSONProblem {
            throw ImportError(file: name, problem: problem.description)
        }
    }

    private static func readCSV(_ file: InputFile, name: String, timeZone: TimeZone, options: ImportOptions,
                                emit: @escaping (ImportedReading) throws -> Void,
                                report: (Int64, Int64) -> Void) throws -> ImportTally {
        try readCSV(name: name, timeZone: timeZone, options: options, emit: emit) { feed in
            try file.chunks { chunk, done in
                try feed(chunk)
                report(done, file.size)
            }
        }
    }

    /// Runs the CSV reader over the chunks `produce` feeds it.
    /// With `options.columns`, the first row is the header and names the columns as the person said.
    private static func readCSV(name: String, timeZone: TimeZone, options: ImportOptions = ImportOptions(),
                                emit: @escaping (ImportedReading) throws -> Void,
                                produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> ImportTally {
        var reader: CSVReader?  // made on the first chunk, which holds the header and so the separator
        var importer: CSVWeightImporter?
        var tally = ImportTally()
        var poundsDeclared = false
        func onRow(_ row: [String], _ line: Int) throws {
            guard let layout = importer else {
                if !options.columns.isEmpty {
                    importer = try CSVWeightImporter(header: row, columns: options.columns, pounds: options.weightUnit == .lb,
                                                     timeZone: timeZone, line: line)
                    return
                }
                // A Samsung Health file names its data type on a line above the header.
                if line == 1, row.first?.hasPrefix(CSVWeightImporter.samsungWeightLine) == true { return }
                // Libra's lines above its header: `#Version: 6`, `#Units: kg` (or lb), a blank one.
                if row.count == 1, let only = row.first?.trimmingCharacters(in: .whitespaces), only.isEmpty || only.hasPrefix("#") {
                    if only.lowercased().hasPrefix("#units:") { poundsDeclared = only.lowercased().contains("lb") }
                    return
                }
                var header = row
                if let first = header.first, first.hasPrefix("#") { header[0] = String(first.dropFirst()) }
                importer = CSVWeightImporter(header: header, timeZone: timeZone, poundsDeclared: poundsDeclared)
                if importer == nil { throw ImportLineProblem(line: line, message: "unrecognized CSV header") }
                return
            }
            if let value = try layout.reading(from: row, line: line, tally: &tally) { try emit(value) }
        }
        do {
            try produce { chunk in
                if reader == nil { reader = CSVReader(delimiter: CSVReader.delimiter(ofFileStartingWith: chunk)) }
                try reader!.feed(chunk, onRow)
            }
            try reader?.finish(onRow)
        } catch let problem as ImportLineProblem {
            throw ImportError(file: name, line: problem.line, problem: problem.message)
        }
        return tally
    }

    /// A Samsung Health download as the phone saves it: a folder (`samsunghealth_<name>_<time>/`) of CSV files.
    private static func readSamsungFolder(_ url: URL, timeZone: TimeZone,
                                          emit: @escaping (ImportedReading) throws -> Void) throws -> ImportResult {
        let files = DownloadFile.files(in: url)
        guard files.contains(where: { isSamsungWeightFile(URL(fileURLWithPath: $0.path)) || SamsungHealthSleep.isSamsungSleepFile($0) })
        else {
            throw ImportError(file: url.lastPathComponent,
                              problem: "a folder, but no com.samsung.health.weight.*.csv in it (nor a Fitbit export's files, nor a Garmin device's .fit files): give a Samsung Health download's folder, a Fitbit export's, a Garmin watch's GARMIN folder, or one file")
        }
        return ImportResult(format: .samsungHealthCSV, tally: try readSamsung(files, name: url.lastPathComponent, timeZone: timeZone, emit: emit),
                            profile: ImportedProfile())
    }

    /// A Samsung Health download, its folder or its zip: of its CSV files, the weight file and the sleep
    /// stage and session files are read; the others hold kinds hmon does not import from Samsung yet.
    private static func readSamsung(_ files: [DownloadFile], name: String, timeZone: TimeZone,
                                    emit: @escaping (ImportedReading) throws -> Void) throws -> ImportTally {
        // Each download holds the whole history: the newest file of each kind is all of it.
        let weights = files.last { !$0.isMacMetadata && isSamsungWeightFile(URL(fileURLWithPath: $0.path)) }
        let stages = files.last { !$0.isMacMetadata && SamsungHealthSleep.isStageFile(URL(fileURLWithPath: $0.path)) }
        let sessions = files.last { !$0.isMacMetadata && SamsungHealthSleep.isSessionFile(URL(fileURLWithPath: $0.path)) }
        var tally = ImportTally()
        if let weights {
            // Samsung writes its times in UTC, with the offset beside them (`CSVWeightImporter`).
            tally = try readCSV(name: "\(name)/\(weights.path)", timeZone: timeZone, emit: emit, produce: weights.read)
        }
        let nights = try SamsungHealthSleep.nights(stages: try stages?.data(), sessions: try sessions?.data(), name: name)
        try SleepNightReadings.emit(nights, timeZone: timeZone, tally: &tally, emit: emit)
        return tally
    }

    static func isSamsungWeightFile(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        return name.hasPrefix(CSVWeightImporter.samsungWeightLine + ".") && name.hasSuffix(".csv")
    }
}

/// A file read in chunks into one reused buffer.
final class InputFile {
    private var descriptor: Int32
    let size: Int64
    private let name: String

    init(_ url: URL) throws {
        name = url.lastPathComponent
        descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ImportError(file: name, problem: "cannot open the file: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = systemClose(descriptor)
            throw ImportError(file: url.lastPathComponent, problem: "not a regular file")
        }
        size = Int64(info.st_size)
    }

    /// The first `count` bytes (fewer for a short file); the next read starts from the beginning again.
    func head(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        guard got >= 0 else { throw ImportError(file: name, problem: "cannot read the file: \(String(cString: strerror(errno)))") }
        return Array(bytes[..<got])
    }

    /// Calls `body` with each chunk and the bytes read so far.
    func chunks(_ body: (UnsafeRawBufferPointer, Int64) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: Importer.chunkSize)
        var done: Int64 = 0
        try buffer.withUnsafeMutableBytes { raw in
            while true {
                let got = read(descriptor, raw.baseAddress, raw.count)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ImportError(file: name, problem: "cannot read the file: \(String(cString: strerror(errno)))")
                }
                if got == 0 { return }
                done += Int64(got)
                try body(UnsafeRawBufferPointer(rebasing: raw[..<got]), done)
            }
        }
    }

    /// Back to the file's start, for a second pass.
    func rewind() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw ImportError(file: name, problem: "cannot read the file again: \(String(cString: strerror(errno)))")
        }
    }

    func close() {
        if descriptor >= 0 {
            _ = systemClose(descriptor)
            descriptor = -1
        }
    }

    deinit { close() }
}
