import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage

/// Fitbit's part of a Google Takeout download (`Tests/Fixtures/fitbit-takeout/`, written in the published
/// shapes): its folder or zip comes into a real store with weigh-ins in kg and their body fat, the nightly
/// RMSSD and each day's resting and active energy; a second import adds nothing; the weights' unit comes from
/// the profile or `--weight-unit`, never from a guess; a malformed file names itself and the place.
@Suite struct FitbitTakeoutImportTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fitbit-takeout", isDirectory: true)
    static let utc = TimeZone(identifier: "UTC")!
    static let fitbit = "Takeout/Fitbit"

    /// The fixture's files, as (path under the download, text), for a zip or a copy to change.
    static func fixtureFiles() throws -> [(String, String)] {
        DownloadFile.files(in: fixture).filter { !$0.path.hasSuffix("README.md") }.map { file in
            (file.path, String(decoding: (try? file.data()) ?? Data(), as: UTF8.self))
        }
    }

    static func store(in folder: TempFolder) async throws -> (LocalStore, User) {
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        return (store, try await store.createUser(NewAccount(name: "ana", password: "secret-pw")))
    }

    @Test func theFolderBringsWeighInsInKgWithTheirFatHRVAndEnergyOnce() async throws {
        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        // The machine's zone is UTC; the profile's Europe/Berlin (UTC+1 in March) is the one the times are read in.
        let first = try await store.importFile(Self.fixture, userID: user.id, timeZone: Self.utc)
        #expect(first.format == .fitbitTakeout)
        #expect(first.tally.added[.weight] == 3)
        #expect(first.tally.added[.bodyFat] == 1, "the fat logged without a weigh-in")
        #expect(first.tally.added[.heartRateVariabilityFromBeats] == 2)
        #expect(first.tally.added[.basalEnergy] == 2)
        #expect(first.tally.added[.activeEnergy] == 2)
        #expect(first.tally.added[.sleep] == 1, "the night and the nap of 14 March")
        #expect(first.tally.addedTotal == 11)

        let again = try await store.importFile(Self.fixture, userID: user.id, timeZone: Self.utc)
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThereTotal == 11)

        let service = LocalHealthService(store: store, userID: user.id)
        let weights = try await service.readings(ReadingsQuery(field: Field.weight, order: .asc, limit: 10))
        #expect(weights.map { $0.data[Field.weight]?.number } == [171.25, 170.8, 170.2].map { $0 * MassUnit.kgPerPound })
        #expect(weights.first?.ts == ms("2026-03-14T05:40:00Z"), "06:40 in Berlin")
        #expect(weights.map { $0.data[ReadingKind.bodyFat.field]?.number } == [21.5, 21.2, nil],
                "the second weigh-in's fat comes from fat-*.json, by its logId")
    }

    @Test func eachDaysMinutesAreItsRestingEnergyAtTheLowestRateAndTheRestActive() throws {
        let (_, readings) = try readAll(Self.fixture, timeZone: Self.utc)
        func energy(_ kind: ReadingKind) -> [Double] { readings.filter { $0.kind == kind }.map(\.value) }
        // 14 March in Berlin: 1.2 + 1.2 + 5.7 + 1.1 kcal over 4 minutes, the lowest 1.1: resting 4.4, active 4.8.
        // The minute at 23:00 UTC is 00:00 on the 15th in Berlin: 1.3 resting, nothing active.
        #expect(energy(.basalEnergy) == [4.4, 1.3])
        #expect(energy(.activeEnergy) == [4.8, 0])
        #expect(readings.first { $0.kind == .basalEnergy }?.timestamp == ms("2026-03-14T11:00:00Z"), "noon in Berlin")
        let hrv = readings.filter { $0.kind == .heartRateVariabilityFromBeats }
        #expect(hrv.map(\.value) == [38.512, 41.2])
        #expect(hrv.first?.timestamp == ms("2026-03-13T23:00:00Z"))
        #expect(hrv.allSatisfy { $0.texts[Field.source] == HRVSource.watch.rawValue }, "Fitbit's own figure, not hmon's from beats")
        #expect(Set(readings.map(\.source)) == ["Fitbit"])
    }

    @Test func aNightKeepsItsStagesAndTheDaysNapCountsAsSleep() throws {
        let (_, readings) = try readAll(Self.fixture, timeZone: Self.utc)
        let night = try #require(readings.first { $0.kind == .sleep })
        // Light 120 + 160, deep 60, REM 90 minutes, and the nap's 38 minutes asleep; awake: the night's two
        // 10-minute wakes and the nap's 3 restless and 1 awake minute. The 1-minute shortData wake is laid over
        // the light stretch and not counted twice.
        #expect(night.value == 468)
        #expect(night.extras[ReadingKind.coreSleep.field] == 280)
        #expect(night.extras[ReadingKind.deepSleep.field] == 60)
        #expect(night.extras[ReadingKind.remSleep.field] == 90)
        #expect(night.extras[ReadingKind.sleepAwake.field] == 24)
        #expect(night.timestamp == ms("2026-03-14T13:47:00Z"), "when the day's last stretch ended, 14:47 in Berlin")
    }

    @Test func theZipOfTheSameDownloadAddsNothing() async throws {
        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        let zip = try folder.zip("takeout-20260320T090000Z-001.zip", entries: try Self.fixtureFiles())
        let zipped = try await store.importFile(zip, userID: user.id, timeZone: Self.utc)
        #expect(zipped.format == .fitbitTakeout)
        #expect(zipped.tally.addedTotal == 11)
        let folderAfter = try await store.importFile(Self.fixture, userID: user.id, timeZone: Self.utc)
        #expect(folderAfter.tally.addedTotal == 0)
    }

    /// Takeout splits a large download into numbered zips: naming any one part reads them all as one
    /// download (the weights' unit from a profile in another part, the fat from another part's logs), and
    /// leaves another download's parts beside them alone.
    @Test func anyPartOfASplitDownloadReadsEveryPart() async throws {
        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        let files = try Self.fixtureFiles()
        let inFirst = files.filter { $0.0.contains("Profile") || $0.0.contains("weight-") || $0.0.contains("sleep-") }
        let inSecond = files.filter { file in !inFirst.contains { $0.0 == file.0 } }
        #expect(inSecond.contains { $0.0.contains("fat-") } && !inSecond.isEmpty)
        _ = try folder.zip("takeout-20260320T090000Z-001.zip", entries: inFirst)
        let second = try folder.zip("takeout-20260320T090000Z-002.zip", entries: inSecond)
        // Another, older download beside it, with a weigh-in of its own: not part of this one.
        _ = try folder.zip("takeout-20250101T000000Z-001.zip", entries: [("\(Self.fitbit)/Global Export Data/weight-2025-01-01.json",
            #"[{"logId": 1, "weight": 150.0, "bmi": 22.0, "date": "01/01/25", "time": "07:00:00", "source": "Aria"}]"#)])

        let imported = try await store.importFile(second, userID: user.id, timeZone: Self.utc)
        #expect(imported.format == .fitbitTakeout)
        #expect(imported.tally.addedTotal == 11, "every part, as the whole folder brings")
        #expect(imported.tally.added[.bodyFat] == 1, "the fat of part 2 found its weigh-ins in part 1")
        let service = LocalHealthService(store: store, userID: user.id)
        let weights = try await service.readings(ReadingsQuery(field: Field.weight, order: .asc, limit: 10))
        #expect(weights.map { $0.data[Field.weight]?.number } == [171.25, 170.8, 170.2].map { $0 * MassUnit.kgPerPound },
                "in lb, as the profile in part 1 says; not the other download's weigh-in")
        #expect(weights.map { $0.data[ReadingKind.bodyFat.field]?.number } == [21.5, 21.2, nil])

        let folderAfter = try await store.importFile(Self.fixture, userID: user.id, timeZone: Self.utc)
        #expect(folderAfter.tally.addedTotal == 0, "the parts and the folder are the same download")
    }

    @Test func aPartThatRepeatsAnotherCountsEachMinuteOnce() async throws {
        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        let files = try Self.fixtureFiles()
        let calories = try #require(files.first { $0.0.contains("calories-") })
        // Part 2 holds the day's minutes again, as a Takeout split that repeats a file does.
        _ = try folder.zip("takeout-20260320T090000Z-001.zip", entries: files)
        let second = try folder.zip("takeout-20260320T090000Z-002.zip", entries: [calories])
        let imported = try await store.importFile(second, userID: user.id, timeZone: Self.utc)
        #expect(imported.tally.added[.activeEnergy] == 2)
        let service = LocalHealthService(store: store, userID: user.id)
        let energy = try await service.readings(ReadingsQuery(field: ReadingKind.activeEnergy.field, order: .asc, limit: 10))
        // As `eachDaysMinutesAreItsRestingEnergyAtTheLowestRateAndTheRestActive` worked by hand: 4.8 and 0, not 9.6.
        #expect(energy.map { $0.data[ReadingKind.activeEnergy.field]?.number } == [4.8, 0])
        let basal = try await service.readings(ReadingsQuery(field: ReadingKind.basalEnergy.field, order: .asc, limit: 10))
        #expect(basal.map { $0.data[ReadingKind.basalEnergy.field]?.number } == [4.4, 1.3])
    }

    @Test func aDamagedPartNamesItselfAndNothingIsKept() async throws {
        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        let first = try folder.zip("takeout-20260320T090000Z-001.zip", entries: try Self.fixtureFiles())
        try Data("not a zip".utf8).write(to: folder.url.appendingPathComponent("takeout-20260320T090000Z-002.zip"))
        let error = try await #require(throws: ImportError.self) {
            _ = try await store.importFile(first, userID: user.id, timeZone: Self.utc)
        }
        #expect(error.file == "takeout-20260320T090000Z-002.zip")
        #expect(error.problem.contains("download it again"))
        let service = LocalHealthService(store: store, userID: user.id)
        #expect(try await service.readings(ReadingsQuery(field: Field.weight, order: .asc, limit: 10)).isEmpty)
    }

    @Test func weightsWithoutAUnitAreRefusedNamingTheFlagAndTheFlagReadsThem() async throws {
        let folder = try TempFolder()
        let weights = try Self.fixtureFiles().first { $0.0.hasSuffix("weight-2026-03-14.json") }!
        try folder.write("takeout/\(weights.0)", weights.1)
        let download = folder.url.appendingPathComponent("takeout")
        let message = importFailure(download)
        #expect(message?.contains("has no Your Profile/Profile.csv") == true, "\(message ?? "")")
        #expect(message?.contains("pass --weight-unit kg or --weight-unit lb") == true)

        let (store, user) = try await Self.store(in: folder)
        await #expect(throws: ImportError.self) { try await store.importFile(download, userID: user.id) }
        let inKg = try await store.importFile(download, userID: user.id, options: ImportOptions(weightUnit: .kg))
        #expect(inKg.tally.added[.weight] == 3)
        let service = LocalHealthService(store: store, userID: user.id)
        let first = try await service.readings(ReadingsQuery(field: Field.weight, order: .asc, limit: 1))
        #expect(first.first?.data[Field.weight]?.number == 171.25)
    }

    @Test func aProfileInStonesIsNoUnit() throws {
        let folder = try TempFolder()
        for (path, text) in try Self.fixtureFiles() {
            try folder.write("takeout/\(path)", path.hasSuffix("Profile.csv") ? text.replacingOccurrences(of: ",en_US,METRIC,en_US,", with: ",en_GB,METRIC,en_GB,") : text)
        }
        let message = importFailure(folder.url.appendingPathComponent("takeout"))
        #expect(message?.contains("weight_unit \"en_GB\", which is neither METRIC (kg) nor en_US (lb)") == true, "\(message ?? "")")
    }

    @Test func aMalformedFileNamesItselfAndThePlaceAndNothingIsKept() async throws {
        let folder = try TempFolder()
        for (path, text) in try Self.fixtureFiles() {
            let broken = path.hasSuffix("fat-2026-03-14.json") ? text.replacingOccurrences(of: "\"03/17/26\"", with: "\"2026-03-17\"") : text
            try folder.write("takeout/\(path)", broken)
        }
        let download = folder.url.appendingPathComponent("takeout")
        let (store, user) = try await Self.store(in: folder)
        do {
            _ = try await store.importFile(download, userID: user.id)
            Issue.record("a bad date was imported")
        } catch let error as ImportError {
            #expect(error.description == "takeout/\(Self.fitbit)/Global Export Data/fat-2026-03-14.json: [1].date: \"2026-03-17\" is not a date like 03/14/26")
        }
        let service = LocalHealthService(store: store, userID: user.id)
        #expect(try await service.readings(ReadingsQuery(field: Field.weight, order: .asc, limit: 10)).isEmpty)

        try folder.write("second/\(Self.fitbit)/Heart Rate Variability/Daily Heart Rate Variability Summary - 2026-03-14.csv",
                                   "timestamp,rmssd,nremhr,entropy\n2026-03-14T00:00:00,38.5,58.3,2.9\n14.03.2026,41.2,57.1,3.02\n")
        #expect(importFailure(folder.url.appendingPathComponent("second"))
                == "second/\(Self.fitbit)/Heart Rate Variability/Daily Heart Rate Variability Summary - 2026-03-14.csv:3: bad timestamp \"14.03.2026\" (expected like 2026-03-14T00:00:00)")
    }
}
