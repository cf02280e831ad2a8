import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage

/// A Samsung Health download ("Download personal data": a folder `samsunghealth_<name>_<time>/` of CSV files,
/// often zipped to move it off the phone): its weight file's weigh-ins, with body fat, land on the person's
/// scale, at the UTC instant the file writes, and a second import adds nothing. The file's shape is Samsung's:
/// a line naming the data type, app version and schema version above the header, a trailing comma on each
/// row, times in UTC with the local offset (`time_offset`) beside them.
@Suite struct SamsungHealthImportTests {
    static let weightFile = """
        com.samsung.health.weight,6305010,2
        weight,body_fat,start_time,time_offset,datauuid,
        71.2,18.5,2026-10-03 05:30:00.000,UTC+0200,w1,
        70.9,,2026-10-04 05:41:00.000,UTC+0200,w2,

        """
    /// Newer downloads name each column after its data type too.
    static let prefixedWeightFile = """
        com.samsung.health.weight,6320001,12
        com.samsung.health.weight.start_time,com.samsung.health.weight.time_offset,com.samsung.health.weight.datauuid,com.samsung.health.weight.weight,com.samsung.health.weight.body_fat
        2026-10-03 05:30:00.000,UTC+0200,w1,71.2,18.5,

        """
    static let heartRateFile = """
        com.samsung.shealth.tracker.heart_rate,6305010,4
        com.samsung.health.heart_rate.heart_rate,com.samsung.health.heart_rate.start_time,
        70,2026-10-03 10:00:00.000,

        """

    @Test func aFileOfItsOwnGivesEachWeighInAtItsUTCTimeWithItsBodyFat() throws {
        let folder = try TempFolder()
        for text in [Self.weightFile, Self.prefixedWeightFile] {
            let file = try folder.write("com.samsung.health.weight.20261006090000.csv", text)
            let (result, readings) = try readAll(file, timeZone: TimeZone(identifier: "America/New_York")!)
            #expect(result.format == .samsungHealthCSV)
            #expect(readings.first?.timestamp == ms("2026-10-03T05:30:00Z"), "UTC as written, whatever the importing machine's zone")
            #expect(readings.first?.value == 71.2)
            #expect(readings.first?.extras[ReadingKind.bodyFat.field] == 18.5)
            #expect(readings.first?.source == "Samsung Health")
        }
        let (_, both) = try readAll(try folder.write("com.samsung.health.weight.1.csv", Self.weightFile))
        #expect(both.map(\.value) == [71.2, 70.9])
        #expect(both.last?.extras[ReadingKind.bodyFat.field] == nil, "an empty body fat is no body fat")
    }

    @Test func theDownloadsFolderAndItsZipImportTheWeighInsOnceIntoTheStore() async throws {
        let folder = try TempFolder()
        let download = "samsunghealth_ana_20261006090000"
        try folder.write("\(download)/com.samsung.health.weight.20261006090000.csv", Self.weightFile)
        try folder.write("\(download)/com.samsung.shealth.tracker.heart_rate.20261006090000.csv", Self.heartRateFile)
        let zip = try folder.zip("\(download).zip", entries: [
            ("\(download)/com.samsung.health.weight.20261006090000.csv", Self.weightFile),
            ("\(download)/com.samsung.shealth.tracker.heart_rate.20261006090000.csv", Self.heartRateFile),
        ])
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))

        let first = try await store.importFile(folder.url.appendingPathComponent(download), userID: user.id)
        #expect(first.format == .samsungHealthCSV)
        #expect(first.tally.added[.weight] == 2)
        let again = try await store.importFile(zip, userID: user.id)
        #expect(again.tally.added[.weight] == nil, "the zip of the same download adds nothing")
        #expect(again.tally.alreadyThere[.weight] == 2)

        let service = LocalHealthService(store: store, userID: user.id)
        let weights = try await service.readings(ReadingsQuery(field: Field.weight, order: .asc, limit: 10))
        #expect(weights.map { $0.data[Field.weight]?.number } == [71.2, 70.9])
        #expect(weights.first?.ts == ms("2026-10-03T05:30:00Z"))
        #expect(weights.first?.data[ReadingKind.bodyFat.field]?.number == 18.5)
    }

    /// Samsung's stage codes (40001 awake, 40002 light, 40003 deep, 40004 REM), times in UTC; a session with
    /// stages is told by them, one without (a nap the phone logged) as time asleep without a stage.
    static let stageFile = """
        com.samsung.health.sleep_stage,7006003,6
        start_time,end_time,stage,sleep_id,time_offset,
        2026-10-04 20:55:00.000,2026-10-05 00:15:00.000,40002,sleep-a,UTC+0200,
        2026-10-05 00:15:00.000,2026-10-05 01:45:00.000,40003,sleep-a,UTC+0200,
        2026-10-05 01:45:00.000,2026-10-05 03:25:00.000,40004,sleep-a,UTC+0200,
        2026-10-05 03:25:00.000,2026-10-05 04:35:00.000,40001,sleep-a,UTC+0200,

        """
    static let sessionFile = """
        com.samsung.shealth.sleep,6305010,3
        com.samsung.health.sleep.start_time,com.samsung.health.sleep.end_time,com.samsung.health.sleep.time_offset,com.samsung.health.sleep.datauuid,
        2026-10-04 20:45:00.000,2026-10-05 04:45:00.000,UTC+0200,sleep-a,
        2026-10-05 12:00:00.000,2026-10-05 12:40:00.000,UTC+0200,nap-b,

        """

    @Test func theDownloadsNightsAreKeptWithTheirStagesOnce() async throws {
        let folder = try TempFolder()
        let download = "samsunghealth_ana_20261006090000"
        try folder.write("\(download)/com.samsung.health.sleep_stage.20261006090000.csv", Self.stageFile)
        try folder.write("\(download)/com.samsung.shealth.sleep.20261006090000.csv", Self.sessionFile)
        let (result, readings) = try readAll(folder.url.appendingPathComponent(download))
        #expect(result.format == .samsungHealthCSV)
        // Light 200 + deep 90 + REM 100 minutes of the staged night, and the 40-minute nap the same day.
        let night = try #require(readings.first)
        #expect(readings.count == 1)
        #expect(night.kind == .sleep)
        #expect(night.value == 430)
        #expect(night.extras[ReadingKind.deepSleep.field] == 90)
        #expect(night.extras[ReadingKind.remSleep.field] == 100)
        #expect(night.extras[ReadingKind.coreSleep.field] == 200)
        #expect(night.extras[ReadingKind.sleepAwake.field] == 70)

        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        #expect(try await store.importFile(folder.url.appendingPathComponent(download), userID: user.id, timeZone: TimeZone(identifier: "UTC")!)
            .tally.added[.sleep] == 1)
        let again = try await store.importFile(folder.url.appendingPathComponent(download), userID: user.id, timeZone: TimeZone(identifier: "UTC")!)
        #expect(again.tally.added[.sleep] == nil)
        #expect(again.tally.alreadyThere[.sleep] == 1)
    }

    @Test func theZippedDownloadsNightsAreTheFoldersNights() async throws {
        let folder = try TempFolder()
        let download = "samsunghealth_ana_20261006090000"
        try folder.write("\(download)/com.samsung.health.sleep_stage.20261006090000.csv", Self.stageFile)
        try folder.write("\(download)/com.samsung.shealth.sleep.20261006090000.csv", Self.sessionFile)
        let zip = try folder.zip("\(download).zip", entries: [
            ("\(download)/com.samsung.health.sleep_stage.20261006090000.csv", Self.stageFile),
            ("\(download)/com.samsung.shealth.sleep.20261006090000.csv", Self.sessionFile),
            ("\(download)/com.samsung.health.weight.20261006090000.csv", Self.weightFile),
        ])
        let (result, readings) = try readAll(zip)
        #expect(result.format == .samsungHealthCSV)
        let night = try #require(readings.first { $0.kind == .sleep })
        #expect(night.value == 430)
        #expect(night.extras[ReadingKind.deepSleep.field] == 90)

        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        let zipped = try await store.importFile(zip, userID: user.id, timeZone: TimeZone(identifier: "UTC")!)
        #expect(zipped.tally.added[.sleep] == 1)
        #expect(zipped.tally.added[.weight] == 2)
        let fromFolder = try await store.importFile(folder.url.appendingPathComponent(download), userID: user.id, timeZone: TimeZone(identifier: "UTC")!)
        #expect(fromFolder.tally.added[.sleep] == nil, "the folder's night is the zip's")
        #expect(fromFolder.tally.alreadyThere[.sleep] == 1)
    }

    @Test func aFolderWithoutASamsungWeightFileSaysWhatItWanted() throws {
        let folder = try TempFolder()
        try folder.write("photos/holiday.txt", "not health data")
        let message = importFailure(folder.url.appendingPathComponent("photos"))
        #expect(message?.contains("no com.samsung.health.weight.*.csv in it") == true, "\(message ?? "")")
    }
}
