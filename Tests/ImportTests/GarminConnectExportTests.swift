import Foundation
import TestSupport
import Testing
import ZIPFoundation
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage

/// Garmin Connect's "Export your data" zip (`Tests/Fixtures/garmin-connect/garmin-export.zip`, written by
/// `Tests/ReferenceScripts/make_garmin_export_fixture.py` in the shapes published importers read): its uploaded
/// FIT files through the FIT import, its own weigh-ins, nights and days; what both hold counted once; a second
/// import adding nothing on either engine; a broken file named with its place, nothing kept.
@Suite struct GarminConnectExportTests {
    static let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/garmin-connect/garmin-export.zip")
    static let own = GarminConnectWellness.source

    @Test func theExportGivesTheUploadsFilesAndItsOwnFiguresEachOnce() throws {
        let (result, readings) = try readAll(Self.export)
        #expect(result.format == .garminConnectExport)
        func of(_ kind: ReadingKind) -> [ImportedReading] { readings.filter { $0.kind == kind }.sorted { $0.timestamp < $1.timestamp } }

        // The scale's three weigh-ins from its uploaded FIT file, then the typed one and the one without body
        // composition from the JSON; the JSON's copy of the FIT file's first weigh-in is left out.
        #expect(of(.weight).map(\.value) == [72.45, 72.1, 71.9, 71.8, 71.65])
        #expect(of(.weight).map(\.source) == [GarminFITImportTests.scale, GarminFITImportTests.scale, GarminFITImportTests.scale, Self.own, Self.own])
        #expect(of(.weight).map(\.timestamp).suffix(2) == [ms("2026-03-17T06:55:00Z"), ms("2026-03-18T06:02:00Z")])
        #expect(of(.weight).last?.extras == [:], "Garmin's zeros are what the scale could not measure")
        #expect(result.tally.skippedReasons["Garmin Connect weigh-in also in an uploaded FIT file (the file's is kept)"] == 1)
        #expect(result.tally.skippedReasons["Garmin Connect profile weight (a setting, not a weigh-in)"] == 1)
        #expect(result.tally.skippedKinds["Garmin Connect biometrics without a weight (height, VO2 max, …)"] == 2)

        // The watch's night from its sleep file, as a watch's folder gives it; the night only Garmin Connect has,
        // 22:40–06:10: deep 4800 s, light 14400 s, REM 5400 s, awake 2400 s.
        #expect(of(.sleep) == [GarminFITImportTests.watchNight, ImportedReading(
            kind: .sleep, source: Self.own, timestamp: ms("2026-03-15T06:10:00Z"), value: 80 + 240 + 90,
            extras: [Field.coreSleepMinutes: 240, Field.deepSleepMinutes: 80, Field.remSleepMinutes: 90, Field.awakeMinutes: 40,
                     Field.sleepWindowMinutes: 450])])
        #expect(result.tally.skippedReasons["Garmin Connect night also in an uploaded sleep file (the file's is kept)"] == 1)
        #expect(result.tally.skippedReasons["Garmin Connect day without a night's times"] == 1)

        // Each day's totals at noon (UTC here), the day's own resting heart rate before the plain field.
        let noon14 = ms("2026-03-14T12:00:00Z"), noon15 = ms("2026-03-15T12:00:00Z")
        #expect(of(.steps).map { "\($0.timestamp) \($0.value) \($0.isSpanTotal)" } == ["\(noon14) 8412.0 true", "\(noon15) 10230.0 true"])
        #expect(of(.activeEnergy).map(\.value) == [512, 640.5])
        #expect(of(.restingHeartRate).map(\.value) == [51, 53])
        #expect(result.tally.skippedKinds["Garmin Connect day without the watch's data"] == 1)
        #expect(result.tally.skippedKinds["Garmin Connect hydration day"] == 1)
        #expect(result.tally.skippedKinds["Garmin Connect DI-Connect-Fitness file"] == 1)
        #expect(result.tally.skippedKinds["Garmin Connect DI-Connect-User file"] == 1)
        #expect(readings.count == 13)
    }

    @Test(arguments: StoreEngine.available) func aSecondImportAddsNothingAndTheWatchsFolderIsAlreadyThere(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let folder = try await world.importFile(GarminFITImportTests.fixture)
        #expect(folder.tally.added[.weight] == 3)

        let first = try await world.importFile(Self.export)
        #expect(first.format == .garminConnectExport)
        #expect(first.tally.alreadyThere == [.weight: 3, .sleep: 1], "the uploads' FIT files are the watch folder's, by the same ids")
        #expect(first.tally.added == [.weight: 2, .sleep: 1, .steps: 2, .activeEnergy: 2, .restingHeartRate: 2])
        let count = try await world.messageCount()

        let again = try await world.importFile(Self.export)
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThereTotal == 13)
        #expect(try await world.messageCount() == count)
    }

    @Test func progressGrowsFileByFileToTheWholeZip() throws {
        var seen: [Int64] = []
        var total: Int64 = 0
        _ = try Importer.read(Self.export, timeZone: TimeZone(identifier: "UTC")!, progress: { progress in
            seen.append(progress.bytesRead)
            total = progress.totalBytes
        }) { _ in }
        #expect(seen.count == 5, "one report for each of the four files read, one at the end")
        #expect(seen == seen.sorted())
        #expect(seen.first.map { $0 > 0 && $0 < total } == true, "a file's compressed bytes, part of the zip")
        #expect(total == (try FileManager.default.attributesOfItem(atPath: Self.export.path)[.size] as? NSNumber)?.int64Value)
        #expect(seen.last == total)
    }

    @Test func theUnzippedFolderReadsAsTheZip() throws {
        let folder = try TempFolder()
        try FileManager.default.unzipItem(at: Self.export, to: folder.url)
        let (zipped, fromZip) = try readAll(Self.export)
        for given in [folder.url, folder.url.appendingPathComponent("DI_CONNECT")] {
            let (result, readings) = try readAll(given)
            #expect(result.format == .garminConnectExport, "\(given.lastPathComponent)")
            func ordered(_ all: [ImportedReading]) -> [ImportedReading] {
                all.sorted { ($0.kind.rawValue, $0.timestamp, $0.source) < ($1.kind.rawValue, $1.timestamp, $1.source) }
            }
            #expect(ordered(readings) == ordered(fromZip), "\(given.lastPathComponent)")
            #expect(readings.count == 13)
            #expect(result.tally.skippedKinds == zipped.tally.skippedKinds)
        }
    }

    /// A copy of the fixture with `path` replaced by `data` (or taken out when nil).
    static func changed(_ path: String, to data: Data?, in folder: TempFolder) throws -> URL {
        let copy = folder.url.appendingPathComponent("garmin-export.zip")
        let source = try Archive(url: Self.export, accessMode: .read)
        let target = try Archive(url: copy, accessMode: .create)
        for entry in source where entry.path != path {
            var bytes = Data()
            _ = try source.extract(entry) { bytes.append($0) }
            try target.addEntry(with: entry.path, type: .file, uncompressedSize: Int64(bytes.count), compressionMethod: .deflate) { position, size in
                bytes.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        if let data {
            try target.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return copy
    }

    @Test func aBrokenJSONFileIsNamedWithItsPlaceAndNothingIsKept() async throws {
        let folder = try TempFolder()
        let path = "DI_CONNECT/DI-Connect-Aggregator/UDSFile_2026-03-01_2026-06-09.json"
        let broken = try Self.changed(path, to: Data(#"[{"calendarDate": "2026-03-14", "totalSteps": 8412}, {"calendarDate": "14.03.2026"}]"#.utf8), in: folder)
        let (store, user) = try await GarminFITImportTests.store(in: folder)
        do {
            _ = try await store.importFile(broken, userID: user.id)
            Issue.record("a broken export was imported")
        } catch let error as ImportError {
            #expect(error.description == "garmin-export.zip/\(path): [1].calendarDate: \"14.03.2026\" is not a day like 2026-03-14")
        }
        #expect(try await store.messageCount(userID: user.id) == 0, "nothing of the archive is kept, not even its FIT files")
    }

    @Test func cutOffJSONIsNamedWithItsPlace() throws {
        let folder = try TempFolder()
        let path = "DI_CONNECT/DI-Connect-Wellness/12345678_userBioMetrics.json"
        let cut = try Self.changed(path, to: Data(#"[{"metaData": {"calendarDate": "2026-03-14T07:40:00.0"}, "weight": {"weight": 72450.0"#.utf8), in: folder)
        let message = try #require(importFailure(cut))
        #expect(message.hasPrefix("garmin-export.zip/\(path): "), "\(message)")
    }

    @Test func aZipWithoutDI_CONNECTSaysWhatItLookedFor() throws {
        let folder = try TempFolder()
        let other = folder.url.appendingPathComponent("photos.zip")
        let archive = try Archive(url: other, accessMode: .create)
        let data = Data("not health data".utf8)
        try archive.addEntry(with: "notes.txt", type: .file, uncompressedSize: Int64(data.count)) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
        let message = try #require(importFailure(other))
        #expect(message.hasPrefix("photos.zip: "))
        #expect(message.contains("no DI_CONNECT folder (Garmin Connect's export)"))
    }
}
