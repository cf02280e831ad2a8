import Foundation
import TestSupport
import Testing
import ZIPFoundation
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// `hmon import` of a Garmin watch's folder as a person runs it: the built binary, its summary, a second
/// run adding nothing, and a cut-off file refused with its name and byte, nothing kept.
@Suite(.heavy) struct GarminImportCommandTests {
    @Test func theWatchsFolderComesInOnceAndTheSummarySaysWhatWasLeftOut() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let garmin = GarminFITImportTests.fixture.appendingPathComponent("GARMIN").path

        let first = try await ImportCommandTests.run(["import", garmin, "--db", db, "--user", "ana"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("GARMIN: Garmin FIT, read in "))
        #expect(ImportCommandTests.facts(first.stdout) == [
            "added 14 readings: 3 weights, 2 active energy, 2 step counts, 2 resting heart rates, 2 HRV readings (RMSSD), 1 night asleep, 2 systolic blood pressures",
            "by device: \(GarminFITImportTests.watch) (Activity Tracker) 7, Scale 3, \(GarminFITImportTests.cuff) 2, \(GarminFITImportTests.watch) 2",
            "not kept: 5 other records and elements (heart rate a minute (Garmin monitoring) 3, Garmin activity file 1, Garmin resting heart rate the watch revised later that day 1)",
        ], "the monitoring file's days are kept, its heart rate a minute counted")

        let second = try await ImportCommandTests.run(["import", garmin, "--db", db, "--user", "ana"])
        #expect(ImportCommandTests.facts(second.stdout).prefix(2) == ["added 0 readings", "already there: 14 readings"])
    }

    @Test func garminConnectsExportComesInOnceBesideTheWatchsFolder() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let garmin = GarminFITImportTests.fixture.appendingPathComponent("GARMIN").path
        let export = GarminConnectExportTests.export.path
        #expect(try await ImportCommandTests.run(["import", garmin, "--db", db, "--user", "ana"]).status == 0)

        let first = try await ImportCommandTests.run(["import", export, "--db", db, "--user", "ana"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("garmin-export.zip: Garmin Connect export, read in "))
        #expect(ImportCommandTests.facts(first.stdout) == [
            "added 9 readings: 2 weights, 2 active energy, 2 step counts, 2 resting heart rates, 1 night asleep",
            "by device: Garmin Connect 7, Scale 2",
            "already there: 4 readings",
            "skipped 4: 1 Garmin Connect day without a night's times, 1 Garmin Connect night also in an uploaded sleep file (the file's is kept), 1 Garmin Connect profile weight (a setting, not a weigh-in), 1 Garmin Connect weigh-in also in an uploaded FIT file (the file's is kept)",
            "not kept: 6 other records and elements (Garmin Connect biometrics without a weight (height, VO2 max, …) 2, Garmin Connect DI-Connect-Fitness file 1, Garmin Connect DI-Connect-User file 1, Garmin Connect day without the watch's data 1, Garmin Connect hydration day 1)",
        ], "the uploads' weigh-ins and night are the watch folder's, already there")
        let second = try await ImportCommandTests.run(["import", export, "--db", db, "--user", "ana"])
        #expect(ImportCommandTests.facts(second.stdout).prefix(2) == ["added 0 readings", "already there: 13 readings"])
    }

    @Test func aZipOfSomethingElseIsRefusedSayingWhatItLookedFor() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let zip = folder.url.appendingPathComponent("holiday.zip")
        try FileManager.default.zipItem(at: try folder.write("notes.txt", "nothing here"), to: zip)

        let run = try await ImportCommandTests.run(["import", zip.path, "--db", db, "--user", "ana"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("holiday.zip: a zip hmon does not know: no apple_health_export/export.xml (Apple Health), no DI_CONNECT folder (Garmin Connect's export)"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was imported"))
    }

    @Test func aCutOffFileIsRefusedWithItsByteAndNothingIsKept() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let whole = try Data(contentsOf: GarminFITImportTests.weightFile)
        let cut = folder.url.appendingPathComponent("W3E01234.FIT")
        try whole.prefix(100).write(to: cut)

        let run = try await ImportCommandTests.run(["import", cut.path, "--db", db, "--user", "ana"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("W3E01234.FIT: at byte 100: the file is truncated"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing was imported"))
        let store = try LocalStore(url: URL(fileURLWithPath: db), passwordHasher: .fastForTests)
        let user = try #require(try await store.users().first)
        let service = LocalHealthService(store: store, userID: user.id)
        #expect(try await service.readings(ReadingsQuery(field: "weight", limit: 10)).isEmpty)
    }
}
