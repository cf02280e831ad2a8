import Foundation
import TestSupport
import Testing
import ZIPFoundation
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// Gadgetbridge's exported database, as `Tests/ReferenceScripts/make_gadgetbridge_fixture.py` writes it from
/// Gadgetbridge's published schema: a Xiaomi band (alias "Ana's band"), a Garmin watch and a Mi scale, with
/// a night from each family's sleep tables. The figures below are worked out by hand from that script.
@Suite struct GadgetbridgeImportTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ReferenceScripts")

    /// A copy of a committed fixture in `folder`, so no test can touch the committed file.
    static func copy(_ fixture: String, to folder: TempFolder, as name: String = "Gadgetbridge.db") throws -> URL {
        let file = folder.url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: scripts.appendingPathComponent(fixture), to: file)
        return file
    }

    static func fixture(in folder: TempFolder) throws -> URL { try copy("gadgetbridge-fixture.db", to: folder) }

    /// The band's night, 23:00–07:00: light 30 min, deep 60, light 90, REM 45, awake 15, light 180, REM 60 (to
    /// the wake-up time).
    static let bandNight = ImportedReading(
        kind: .sleep, source: "Ana's band", timestamp: ms("2026-11-17T07:00:00Z"), value: 465,
        extras: [Field.coreSleepMinutes: 300, Field.deepSleepMinutes: 60, Field.remSleepMinutes: 105,
                 Field.awakeMinutes: 15, Field.sleepWindowMinutes: 480],
        texts: [Field.hypnogram: "0c,30d,90c,180r,225w,240c,420r,480."])

    /// The watch's night, each sample ending its stretch: 22:30–23:00 light, to 00:00 deep, to 01:30 light, to
    /// 02:00 REM, to 02:10 awake, to 05:00 light, to 06:00 REM.
    static let watchNight = ImportedReading(
        kind: .sleep, source: "Forerunner 255", timestamp: ms("2026-11-18T06:00:00Z"), value: 440,
        extras: [Field.coreSleepMinutes: 290, Field.deepSleepMinutes: 60, Field.remSleepMinutes: 90,
                 Field.awakeMinutes: 10, Field.sleepWindowMinutes: 450],
        texts: [Field.hypnogram: "0c,30d,90c,180r,210w,220c,390r,450."])

    @Test func theDatabaseGivesWeighInsNightsAndTheDaysFigures() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try Self.fixture(in: folder))
        #expect(result.format == .gadgetbridge)
        func of(_ kind: ReadingKind) -> [ImportedReading] { readings.filter { $0.kind == kind }.sorted { $0.timestamp < $1.timestamp } }

        #expect(of(.weight).map(\.value) == [70.4, 70.1, 69.9])
        #expect(of(.weight).map(\.timestamp) == [ms("2026-11-16T07:00:00Z"), ms("2026-11-17T07:05:00Z"), ms("2026-11-18T07:02:00Z")])
        #expect(Set(of(.weight).map(\.source)) == ["MI SCALE2"], "an empty alias leaves the device's name")
        #expect(result.tally.skippedReasons["weight outside 1–650 kg"] == 1, "the scale's 0 kg")

        #expect(of(.sleep) == [Self.bandNight, Self.watchNight])

        #expect(of(.restingHeartRate).map { "\($0.source) \($0.value)" } == ["Forerunner 255 52.0", "Forerunner 255 50.0"])
        #expect(of(.oxygenSaturation).map(\.value) == [96])
        #expect(result.tally.skippedReasons["SpO2 reading outside 50–100 %"] == 1, "a SpO2 of 0 is no reading")
        #expect(of(.heartRateVariabilityFromBeats).map(\.value) == [48])
        #expect(of(.heartRateVariabilityFromBeats).first?.timestamp == ms("2026-11-18T06:00:00Z"))

        // The minutes as a day's totals at noon: the watch's 5 × 100 steps and 5 × 5 kcal, the band's 60 + 70 steps.
        let noon = ms("2026-11-17T12:00:00Z")
        #expect(Set(of(.steps).map { "\($0.source) \($0.value) \($0.timestamp == noon) \($0.isSpanTotal)" })
                == ["Forerunner 255 500.0 true true", "Ana's band 130.0 true true"])
        #expect(of(.activeEnergy).map { "\($0.source) \($0.value)" } == ["Forerunner 255 25.0"])
        // The minutes' heart rates are counted, not kept: the watch's five and the band's 72 (255 and 0 are no reading).
        #expect(result.tally.skippedKinds[Gadgetbridge.perMinuteHeartRate] == 6)
        #expect(readings.allSatisfy { $0.kind != .heartRate })

        #expect(result.tally.tablesRead["MI_SCALE_WEIGHT_SAMPLE"] == 4)
        #expect(result.tally.tablesRead["MI_BAND_ACTIVITY_SAMPLE"] == nil, "an empty table is not named")
        #expect(result.tally.tablesRead["DEVICE"] == 3)
        #expect(result.tally.tablesNotRead == ["PEBBLE_HEALTH_ACTIVITY_SAMPLE": 2, "GARMIN_STRESS_SAMPLE": 3,
                                               "USER": 1, "DEVICE_ATTRIBUTES": 1])
    }

    /// Three families whose minutes asleep are marked in their activity samples, as the script's second file
    /// (`gadgetbridge-minute-sleep.db`) writes them; worked out by hand from it. The Mi Band 3: 60 min light,
    /// 60 deep, 30 light (23:00–01:30). The Amazfit Bip 5: 60 light, 30 deep, 20 REM (its REM figure above 55
    /// wins over a deep one above 42), then 5 light (42 and 55 are not above), 22:00–23:55. The Huawei band:
    /// a block of 90 min light and one of 90 deep, 22:00–01:00, each stored with an end marker that adds nothing.
    @Test func minutesAsleepInTheSamplesOfAMiBandAnAmazfitAndAHuaweiBandMakeTheirNights() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try Self.copy("gadgetbridge-minute-sleep.db", to: folder))
        let nights = readings.filter { $0.kind == .sleep }.sorted { $0.timestamp < $1.timestamp }
        #expect(nights.map(\.source) == ["Mi Band 3", "Amazfit Bip 5", "HUAWEI Band 8"])
        #expect(nights.map(\.value) == [150, 115, 180])
        #expect(nights.map(\.timestamp) == [ms("2026-11-21T01:30:00Z"), ms("2026-11-21T23:55:00Z"), ms("2026-11-23T01:00:00Z")])
        #expect(nights.map { $0.extras[Field.coreSleepMinutes] ?? 0 } == [90, 65, 90])
        #expect(nights.map { $0.extras[Field.deepSleepMinutes] ?? 0 } == [60, 30, 90])
        #expect(nights.map { $0.extras[Field.remSleepMinutes] ?? 0 } == [0, 20, 0])
        #expect(nights.map { $0.extras[Field.sleepWindowMinutes] ?? 0 } == [150, 115, 180])
        // The bands' steps, as their days (each band's waking minute); the Huawei band's are left out (its spans
        // come from several of its messages, so a plain sum of them would be wrong).
        #expect(Set(readings.filter { $0.kind == .steps }.map { "\($0.source) \($0.value)" }) == ["Mi Band 3 12.0", "Amazfit Bip 5 40.0"])
        #expect(result.tally.tablesRead["HUAWEI_ACTIVITY_SAMPLE"] == 6)
        #expect(result.tally.tablesNotRead.isEmpty)
    }

    @Test(arguments: StoreEngine.available) func aSecondImportAddsNothingAndTheFileIsLeftAsItWas(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let file = try Self.fixture(in: world.folder)
        let before = try Data(contentsOf: file)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date

        let first = try await world.importFile(file)
        #expect(first.tally.added[.weight] == 3)
        #expect(first.tally.added[.sleep] == 2)
        #expect(first.tally.added[.restingHeartRate] == 2)
        let names = try await world.deviceNames()
        #expect(names["Ana's band"] != nil && names["Forerunner 255"] != nil, "devices named by alias, else name: \(names)")
        #expect(names["Scale"] != nil, "weigh-ins land on the one scale: \(names)")
        let count = try await world.messageCount()
        #expect(count == first.tally.addedTotal)

        let again = try await world.importFile(file)
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThereTotal == first.tally.addedTotal)
        #expect(try await world.messageCount() == count)

        #expect(try Data(contentsOf: file) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == modified)
        let beside = try FileManager.default.contentsOfDirectory(atPath: world.folder.url.path).filter { $0.hasPrefix("Gadgetbridge.db") }
        #expect(beside == ["Gadgetbridge.db"], "no journal, -wal or -shm left beside the export")
    }

    /// Times at the ends of a 64-bit integer, text for a number, a device without a name: skipped with the
    /// reason, never a trap, and the fixture's own readings still come in.
    @Test func rowsNoDeviceWritesAreSkippedSayingWhy() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try Self.copy("gadgetbridge-odd-rows.db", to: folder))
        #expect(result.tally.skippedReasons["MI_SCALE_WEIGHT_SAMPLE row dated before 1970 or after 2099"] == 2)
        #expect(result.tally.skippedReasons["GARMIN_ACTIVITY_SAMPLE row dated before 1970 or after 2099"] == 2)
        #expect(result.tally.skippedReasons["GARMIN_SLEEP_STAGE_SAMPLE row dated before 1970 or after 2099"] == 2)
        #expect(result.tally.skippedReasons["XIAOMI_SLEEP_TIME_SAMPLE row dated before 1970 or after 2099"] == 1)
        #expect(readings.filter { $0.kind == .weight }.count == 3)
        #expect(readings.filter { $0.kind == .sleep }.map(\.value) == [465, 440])
        #expect(Set(readings.filter { $0.kind == .restingHeartRate }.map(\.source)) == ["Gadgetbridge device 2"],
                "a device with neither alias nor name is named by its number")
    }

    @Test func theZipOfTheDatabaseReadsTheSameAndLeavesNoCopy() throws {
        let folder = try TempFolder()
        let database = try Self.fixture(in: folder)
        let zip = folder.url.appendingPathComponent("Gadgetbridge.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        try archive.addEntry(with: "Gadgetbridge", fileURL: database, compressionMethod: .deflate)
        let temporary = FileManager.default.temporaryDirectory
        func copies() throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("hmon-gadgetbridge-") })
        }
        let earlier = try copies()
        let (zipped, zippedReadings) = try readAll(zip)
        let (plain, plainReadings) = try readAll(database)
        #expect(zipped.format == .gadgetbridge)
        #expect(zippedReadings == plainReadings)
        #expect(zipped.tally == plain.tally)
        #expect(try copies().subtracting(earlier).isEmpty, "the extracted copy is removed")
    }

    @Test(arguments: StoreEngine.available) func aTableWithoutAColumnHMonNeedsIsRefusedWhole(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let file = try Self.copy("gadgetbridge-missing-column.db", to: world.folder)
        await #expect {
            _ = try await world.importFile(file)
        } throws: { error in
            "\(error)".contains("Gadgetbridge.db: Gadgetbridge's table MI_SCALE_WEIGHT_SAMPLE has no column WEIGHT_KG, which hmon reads")
        }
        #expect(try await world.messageCount() == 0, "not even the SpO2 the file holds")
    }

    @Test func aFileThatIsNotGadgetbridgesIsRefusedSayingWhat() async throws {
        let folder = try TempFolder()
        let text = try folder.write("Gadgetbridge.db", "not a database\n")
        #expect(importFailure(text)?.contains("Gadgetbridge.db: not a file hmon can import") == true)
        #expect(importFailure(text)?.contains("Gadgetbridge's exported database") == true)
        // An SQLite database of another program: hmon's own store.
        let world = try await StoreImportTests.World(.sqlite)
        let store = world.folder.url.appendingPathComponent("hmon.sqlite")
        #expect(importFailure(store)?.contains("hmon.sqlite: an SQLite database, but not Gadgetbridge's") == true)
        // A damaged one: the header of a database and nothing after it.
        var header = Array("SQLite format 3\0".utf8)
        header += [UInt8](repeating: 0xAB, count: 4096)
        let damaged = folder.url.appendingPathComponent("damaged.db")
        try Data(header).write(to: damaged)
        #expect(importFailure(damaged)?.contains("damaged.db: the database is damaged or not an SQLite database") == true)
    }
}
