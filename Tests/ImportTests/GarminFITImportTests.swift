import Foundation
import Testing
import ZIPFoundation
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage

/// A Garmin watch's `GARMIN/` folder as it shows over USB (`Tests/Fixtures/garmin/`, written by fit-tool, see
/// `Tests/ReferenceScripts/make_garmin_fit_fixtures.py`) and single `.fit` files, into a real SQLite store:
/// weigh-ins with their body composition on the scale, a blood pressure as one reading with its pulse,
/// Garmin's nightly HRV; what each file holds told by its `file_id`, not its folder; a second import adds
/// nothing; a damaged file names itself and the byte, and nothing of the folder is kept.
@Suite struct GarminFITImportTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/garmin", isDirectory: true)
    static let weightFile = fixture.appendingPathComponent("GARMIN/Weight/W3E01234.FIT")
    /// A later copy of the watch's folder: the next monitoring file of its 15th alone.
    static let laterFixture = fixture.deletingLastPathComponent().appendingPathComponent("garmin-later", isDirectory: true)
    static let scale = "Garmin product 2429 (serial 3912345678)"
    static let cuff = "Garmin product 3148 (serial 3987654321)"
    static let watch = "Garmin product 4315 (serial 3455555555)"

    static func store(in folder: TempFolder) async throws -> (LocalStore, User) {
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        return (store, try await store.createUser(NewAccount(name: "ana", password: "secret-pw")))
    }

    @Test func theFolderBringsWeighInsBloodPressuresAndNightlyHRVOnce() async throws {
        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        let first = try await store.importFile(Self.fixture, userID: user.id)
        #expect(first.format == .garminFIT)
        #expect(first.tally.added == [.weight: 3, .bloodPressureSystolic: 2, .heartRateVariabilityFromBeats: 2, .sleep: 1,
                                     .restingHeartRate: 2, .steps: 2, .activeEnergy: 2])
        #expect(first.tally.skippedKinds == ["Garmin activity file": 1, GarminMonitoringDays.perMinuteHeartRate: 3, Self.revisedRHR: 1],
                "an activity file holds nothing hmon imports")

        let again = try await store.importFile(Self.fixture, userID: user.id)
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThereTotal == 14)

        let service = LocalHealthService(store: store, userID: user.id)
        let weights = try await service.readings(ReadingsQuery(field: Field.weight, order: .asc, limit: 10))
        #expect(weights.map { $0.data[Field.weight]?.number } == [72.45, 72.1, 71.9])
        #expect(weights.map { $0.ts } == [ms("2026-03-14T06:40:00Z"), ms("2026-03-15T06:42:10Z"), ms("2026-03-16T07:01:00Z")])
        let composition = try #require(weights.first?.data)
        #expect(composition[ReadingKind.bodyFat.field]?.number == 21.3)
        #expect(composition[ReadingKind.bodyWaterPercentage.field]?.number == 55.2)
        #expect(composition[ReadingKind.boneMass.field]?.number == 3.1)
        #expect(composition[ReadingKind.muscleMass.field]?.number == 33.4)
        #expect(composition[Field.source]?.textValue == Self.scale, "the scale's readings say which device weighed")
        #expect(weights.last?.data[ReadingKind.bodyFat.field] == nil)

        let pressures = try await service.readings(ReadingsQuery(field: Field.systolic, order: .asc, limit: 10))
        #expect(pressures.map { $0.data[Field.systolic]?.number } == [128, 121])
        #expect(pressures.map { $0.data[Field.diastolic]?.number } == [82, 79])
        #expect(pressures.map { $0.data[Field.heartRate]?.number } == [64, nil])

        let nights = try await service.readings(ReadingsQuery(field: Field.rmssd, order: .asc, limit: 10))
        #expect(nights.map { $0.data[Field.rmssd]?.number } == [48.5, 52.25])
        #expect(nights.allSatisfy { $0.data[Field.source] == .text(HRVSource.watch.rawValue) }, "Garmin's own figure, not hmon's from beats")
        #expect(first.tally.addedByDevice == ["Scale": 3, Self.cuff: 2, Self.watch: 2, "\(Self.watch) (Activity Tracker)": 1 + 6],
                "the watch's HRV on its HRV meter, its night and its days on its activity tracker")
    }

    /// The watch's night (`make_garmin_fit_fixtures.py`), each `sleep_level` ending the stretch it names, the
    /// first from the sleep event's start at 22:50: awake to 23:00, light to 00:30, deep to 01:30, REM to 02:30,
    /// awake to 02:34, unmeasurable to 03:00, light to 05:30, REM to 06:10, awake to 06:20.
    static let watchNight = ImportedReading(
        kind: .sleep, source: watch, timestamp: ms("2026-03-14T06:20:00Z"), value: 90 + 60 + 60 + 150 + 40,
        extras: [Field.coreSleepMinutes: 90 + 150, Field.deepSleepMinutes: 60, Field.remSleepMinutes: 60 + 40,
                 Field.awakeMinutes: 10 + 4 + 10, Field.sleepWindowMinutes: 450],
        texts: [Field.hypnogram: "0w,10c,100d,160r,220w,224-,250c,400r,440w,450."])

    @Test func theWatchsSleepFileIsANightEndingAtItsLastLevel() throws {
        let file = Self.fixture.appendingPathComponent("GARMIN/Sleep/S3E01234.FIT")
        let (result, readings) = try readAll(file)
        #expect(result.format == .garminFIT)
        #expect(readings == [Self.watchNight], "the unmeasurable 26 minutes are no stage and not asleep")
        #expect(result.tally.kept == [.sleep: 1])
        #expect(result.tally.skippedKinds.isEmpty, "the sleep event and the levels are all read")
    }

    static let revisedRHR = "Garmin resting heart rate the watch revised later that day"

    /// The watch's monitoring file (`make_garmin_fit_fixtures.py`), the watch an hour ahead of UTC
    /// (`monitoring_info`): on its 14th, walking counts 1200, 5400 and 6100 (the last at its midnight, 23:00 UTC,
    /// the day's close) with 40, 150 and 170 kcal, a run counting 3000 steps and 210 kcal; on its 15th, walking
    /// from zero again to 800 steps and 25 kcal (stamped by `timestamp_16` alone). Resting heart rate 57, then
    /// 56 later the same day; 57 (the seven-day figure, no day figure yet) at 23:30 UTC, the watch's 00:30.
    @Test func theWatchsMonitoringFileIsADayOfRestingHeartRateStepsAndActiveEnergy() throws {
        let file = Self.fixture.appendingPathComponent("GARMIN/Monitor/M3E01234.FIT")
        let (result, readings) = try readAll(file)
        #expect(result.format == .garminFIT)
        func day(_ kind: ReadingKind, _ date: String, _ value: Double) -> ImportedReading {
            ImportedReading(kind: kind, source: Self.watch, timestamp: ms("\(date)T12:00:00Z"), value: value, isSpanTotal: true)
        }
        #expect(readings == [
            day(.restingHeartRate, "2026-03-14", 56), day(.restingHeartRate, "2026-03-15", 57),
            day(.steps, "2026-03-14", 6100 + 3000), day(.steps, "2026-03-15", 800),
            day(.activeEnergy, "2026-03-14", 170 + 210), day(.activeEnergy, "2026-03-15", 25),
        ], "each activity type's largest count of the day, summed; the watch's days, stamped at noon of the import's zone")
        #expect(result.tally.kept == [.restingHeartRate: 2, .steps: 2, .activeEnergy: 2])
        #expect(result.tally.skippedKinds == [GarminMonitoringDays.perMinuteHeartRate: 3, Self.revisedRHR: 1],
                "the heart rate a minute is counted, not kept")
    }

    /// The later copy's file (`make_garmin_fit_fixtures.py`): walking to 4200 steps and 90 kcal on the watch's 15th,
    /// and the day's resting heart rate, 54. Read beside the first file, the 14th's run (in the first file
    /// alone) still counts; imported after it, a day is still one reading of each kind.
    @Test func aLaterFileOfTheSameDayIsStillOneReadingADay() async throws {
        let both = try TempFolder()
        for (name, folder) in [("M3E01234.FIT", Self.fixture), ("M3E01235.FIT", Self.laterFixture)] {
            try FileManager.default.createDirectory(at: both.url.appendingPathComponent("GARMIN/Monitor"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: folder.appendingPathComponent("GARMIN/Monitor/\(name)"),
                                             to: both.url.appendingPathComponent("GARMIN/Monitor/\(name)"))
        }
        let (_, together) = try readAll(both.url)
        #expect(together.filter { $0.kind == .steps }.map(\.value) == [6100 + 3000, 4200], "the largest count of each activity type, over every file")
        #expect(together.filter { $0.kind == .activeEnergy }.map(\.value) == [170 + 210, 90])
        #expect(together.filter { $0.kind == .restingHeartRate }.map(\.value) == [56, 54])

        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        _ = try await store.importFile(Self.fixture, userID: user.id)
        _ = try await store.importFile(Self.laterFixture, userID: user.id)
        let service = LocalHealthService(store: store, userID: user.id)
        for kind in [ReadingKind.steps, .activeEnergy, .restingHeartRate] {
            let stored = try await service.readings(ReadingsQuery(field: kind.field, order: .asc, limit: 10))
            #expect(stored.map(\.ts) == [ms("2026-03-14T12:00:00Z"), ms("2026-03-15T12:00:00Z")], "\(kind.name): one reading a day, never two")
        }
        // The later file's 15th replaces the first's, whatever the kind: a day's figure is the latest download's.
        let later: [(ReadingKind, [Double?])] = [(.steps, [6100 + 3000, 4200]), (.activeEnergy, [170 + 210, 90]), (.restingHeartRate, [56, 54])]
        for (kind, values) in later {
            let stored = try await service.readings(ReadingsQuery(field: kind.field, order: .asc, limit: 10))
            #expect(stored.map { $0.data[kind.field]?.number } == values, "\(kind.name): the later file's 15th")
        }
    }

    @Test func theFolderZippedReadsAsTheFolderAndEitherAfterTheOtherAddsNothing() async throws {
        let folder = try TempFolder()
        let zip = folder.url.appendingPathComponent("GARMIN.zip")
        try FileManager.default.zipItem(at: Self.fixture.appendingPathComponent("GARMIN"), to: zip)
        let (store, user) = try await Self.store(in: folder)
        let zipped = try await store.importFile(zip, userID: user.id)
        #expect(zipped.format == .garminFIT)
        #expect(zipped.tally.added == [.weight: 3, .bloodPressureSystolic: 2, .heartRateVariabilityFromBeats: 2, .sleep: 1,
                                     .restingHeartRate: 2, .steps: 2, .activeEnergy: 2])
        #expect(zipped.tally.skippedKinds == ["Garmin activity file": 1, GarminMonitoringDays.perMinuteHeartRate: 3, Self.revisedRHR: 1])
        let unzipped = try await store.importFile(Self.fixture, userID: user.id)
        #expect(unzipped.tally.addedTotal == 0)
        #expect(unzipped.tally.alreadyThereTotal == 14)
    }

    @Test func oneFileImportsAloneAndAgainFromItsFolderAddsNothing() async throws {
        let folder = try TempFolder()
        let (store, user) = try await Self.store(in: folder)
        let file = try await store.importFile(Self.weightFile, userID: user.id)
        #expect(file.format == .garminFIT)
        #expect(file.tally.added == [.weight: 3])
        let whole = try await store.importFile(Self.fixture, userID: user.id)
        #expect(whole.tally.alreadyThere == [.weight: 3])
        #expect(whole.tally.added[.weight] == nil)
    }

    @Test func whatAFileHoldsIsToldByItsTypeNotItsFolder() throws {
        // The blood pressure file moved into the Weight folder and renamed: still a blood pressure.
        let folder = try TempFolder()
        let moved = folder.url.appendingPathComponent("GARMIN/Weight/ANY.fit")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("GARMIN/BloodPrs/B3E01234.FIT"), to: moved)
        let (result, readings) = try readAll(folder.url)
        #expect(result.format == .garminFIT)
        #expect(readings.map(\.kind) == [.bloodPressureSystolic, .bloodPressureSystolic])
        #expect(readings.map(\.source) == [Self.cuff, Self.cuff])
    }

    @Test func aDamagedFileNamesItselfAndTheByteAndNothingOfTheFolderIsKept() async throws {
        let folder = try TempFolder()
        let copy = folder.url.appendingPathComponent("GARMIN")
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("GARMIN"), to: copy)
        let damaged = copy.appendingPathComponent("Weight/W3E01234.FIT")
        var bytes = [UInt8](try Data(contentsOf: damaged))
        bytes[40] ^= 0x10
        try Data(bytes).write(to: damaged)
        let (store, user) = try await Self.store(in: folder)
        do {
            _ = try await store.importFile(copy, userID: user.id)
            Issue.record("a damaged file was imported")
        } catch let error as ImportError {
            #expect(error.description.hasPrefix("GARMIN/Weight/W3E01234.FIT: at byte \(bytes.count - 2): the file's CRC is 0x"))
            #expect(error.description.contains("copy the file from the device again"))
        }
        let service = LocalHealthService(store: store, userID: user.id)
        #expect(try await service.readings(ReadingsQuery(field: Field.systolic, limit: 10)).isEmpty,
                "the good blood pressure file beside it is not kept either")
    }

    @Test func aFolderOfNeitherGarminNorSamsungFilesSaysWhatItWanted() throws {
        let folder = try TempFolder()
        try folder.write("notes.txt", "nothing here")
        let message = try #require(importFailure(folder.url))
        #expect(message.contains("no com.samsung.health.weight.*.csv in it"))
        #expect(message.contains("Garmin"))
    }
}
