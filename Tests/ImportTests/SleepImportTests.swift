import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// A night of sleep from Apple Health's sleep analysis records and from Health Auto Export's
/// `sleep_analysis`: one reading a night, the night's minutes counted once however many devices saw them
/// (the hand-worked night is `SleepNightsTests`' and `docs/methods.md`'s), and the same file twice adds nothing.
@Suite struct SleepImportTests {
    static func sleepRecord(_ value: String, _ start: String, _ end: String, source: String) -> String {
        """
        <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="\(source)" sourceVersion="10.1" \
        creationDate="\(end)" startDate="\(start)" endDate="\(end)" value="HKCategoryValueSleepAnalysis\(value)">
          <MetadataEntry key="HKTimeZone" value="Europe/London"/>
        </Record>
        """
    }

    /// The watch's stages and the phone's in-bed window and its own "asleep", as `SleepNightsTests.watchAndPhone`.
    static let export = AppleHealthXML.document([
        sleepRecord("InBed", "2024-01-10 22:45:00 +0000", "2024-01-11 06:45:00 +0000", source: "iPhone"),
        sleepRecord("AsleepCore", "2024-01-10 23:00:00 +0000", "2024-01-11 01:00:00 +0000", source: "Apple Watch"),
        sleepRecord("AsleepDeep", "2024-01-11 01:00:00 +0000", "2024-01-11 02:00:00 +0000", source: "Apple Watch"),
        sleepRecord("AsleepREM", "2024-01-11 02:00:00 +0000", "2024-01-11 03:00:00 +0000", source: "Apple Watch"),
        sleepRecord("Awake", "2024-01-11 03:00:00 +0000", "2024-01-11 03:10:00 +0000", source: "Apple Watch"),
        AppleHealthXML.record("StepCount", "120", unit: "count", at: "2024-01-11 08:00:00 +0000"),
        sleepRecord("AsleepCore", "2024-01-11 03:10:00 +0000", "2024-01-11 06:30:00 +0000", source: "Apple Watch"),
        sleepRecord("AsleepUnspecified", "2023-01-10 23:30:00 +0000", "2023-01-11 06:00:00 +0000", source: "iPhone"),
        sleepRecord("Asleep", "2024-01-10 23:30:00 +0000", "2024-01-11 06:00:00 +0000", source: "iPhone"),
        sleepRecord("Dozing", "2024-01-11 12:00:00 +0000", "2024-01-11 12:10:00 +0000", source: "iPhone"),
    ].joined(separator: "\n"))

    static let night = ImportedReading(
        kind: .sleep, source: "Apple Watch", timestamp: ms("2024-01-11T06:45:00Z"), value: 450,
        extras: [Field.coreSleepMinutes: 320, Field.deepSleepMinutes: 60, Field.remSleepMinutes: 60,
                 Field.awakeMinutes: 10, Field.inBedMinutes: 480, Field.sleepWindowMinutes: 480],
        // From 22:45: in bed to 23:00, core to 01:00, deep to 02:00, REM to 03:00; the phone's "asleep" over the
        // watch's ten minutes awake makes them asleep (as in the 450 minutes); core to 06:30, in bed to 06:45.
        texts: [Field.hypnogram: "0b,15c,135d,195r,255s,265c,465b,480."])

    @Test func anExportsSleepRecordsBecomeOneReadingANight() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try folder.write("export.xml", Self.export))
        let nights = readings.filter { $0.kind == .sleep }
        #expect(nights.count == 2, "the night of 2024-01-11, and the phone's night a year before")
        #expect(nights.last == Self.night)
        #expect(nights.first?.value == 390 && nights.first?.extras == [Field.sleepWindowMinutes: 390], "asleep without stages counts as asleep")
        #expect(nights.first?.texts == [Field.hypnogram: "0s,390."])
        #expect(result.tally.kept[.sleep] == 2)
        #expect(result.tally.skippedReasons["sleep record with unknown value \"HKCategoryValueSleepAnalysisDozing\""] == 1)
        #expect(result.tally.skippedKinds["SleepAnalysis"] == nil, "no longer skipped")
    }

    @Test(arguments: StoreEngine.available) func theSameExportTwiceAddsNoSecondNight(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let file = try world.folder.write("export.xml", Self.export)
        let first = try await world.importFile(file)
        #expect(first.tally.added[.sleep] == 2)
        let count = try await world.messageCount()
        let again = try await world.importFile(file)
        #expect(again.tally.added[.sleep] ?? 0 == 0)
        #expect(again.tally.alreadyThere[.sleep] == 2)
        #expect(try await world.messageCount() == count)

        let start = ms("2024-01-11T00:00:00Z"), end = ms("2024-01-12T00:00:00Z")
        let totals = try await world.store.dayTotals(userID: world.user.id, dayStarts: [start], end: end)
        #expect(totals[0]?[.sleep] == SumCount(sum: 450, count: 1), "the night is the day it ends")
        #expect(totals[0]?[.deepSleep] == SumCount(sum: 60, count: 1))
        #expect(totals[0]?[.timeInBed] == SumCount(sum: 480, count: 1))
    }

    /// The stored night keeps its window and stages on both engines, and reads back into the night's
    /// hypnogram and measures (`SleepMeasuresTests` works the watch's night by hand).
    @Test(arguments: StoreEngine.available) func anImportedNightKeepsItsStagesAgainstTheClock(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        _ = try await world.importFile(try world.folder.write("export.xml", Self.export))
        let watch = try #require(try await world.store.devices(userID: world.user.id).first { $0.name == "Apple Watch" })
        let stored = try #require(try await world.store.lastMessages(deviceID: watch.id, userID: world.user.id, count: 10)
            .first { $0.ts == ms("2024-01-11T06:45:00Z") })
        #expect(stored.data[Field.sleepWindowMinutes] == .number(480))
        #expect(stored.data[Field.hypnogram] == .text("0b,15c,135d,195r,255s,265c,465b,480."))
        let read = SleepFields.read(endMs: stored.ts, windowMinutes: stored.data[Field.sleepWindowMinutes]?.number,
                                    hypnogram: stored.data[Field.hypnogram]?.textValue)
        #expect(read.startMs == ms("2024-01-10T22:45:00Z"))
        let hypnogram = try #require(read.hypnogram)
        #expect(hypnogram.startMs == ms("2024-01-10T22:45:00Z"))
        #expect(hypnogram.runs.map(\.stage) == [.inBed, .core, .deep, .rem, .unspecified, .core, .inBed])
    }

    /// Health Auto Export's summed nights (hours), one per device over the same night: the larger of each
    /// figure, as `SleepNightsTests.overlappingSummariesTakeTheLargerFigureAndDisjointOnesAdd` works out.
    @Test func healthAutoExportsSummedNightsFromTwoDevicesCountTheNightOnce() throws {
        let folder = try TempFolder()
        let file = try folder.write("push.json", """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"date": "2024-01-11 00:00:00 +0000", "totalSleep": 7.5, "asleep": 0, "core": 4, "deep": 1, "rem": 2.5,
               "awake": 0.25, "inBed": 0, "sleepStart": "2024-01-10 23:00:00 +0000", "sleepEnd": "2024-01-11 06:30:00 +0000",
               "source": "Apple Watch"},
              {"date": "2024-01-11 00:00:00 +0000", "asleep": 7, "inBed": 8, "sleepStart": "2024-01-10 23:30:00 +0000",
               "sleepEnd": "2024-01-11 06:30:00 +0000", "inBedStart": "2024-01-10 22:45:00 +0000",
               "inBedEnd": "2024-01-11 06:45:00 +0000", "source": "iPhone"}
            ]}]}}
            """)
        let (result, readings) = try readAll(file)
        #expect(readings == [ImportedReading(
            kind: .sleep, source: "Apple Watch", timestamp: ms("2024-01-11T06:45:00Z"), value: 450,
            extras: [Field.coreSleepMinutes: 240, Field.deepSleepMinutes: 60, Field.remSleepMinutes: 150,
                     Field.awakeMinutes: 15, Field.inBedMinutes: 480,
                     // Totals keep their window (22:45–06:45) and no stages against the clock.
                     Field.sleepWindowMinutes: 480])])
        #expect(result.tally.kept[.sleep] == 1)
    }

    /// The app's samples it did not sum are read as the export's records are: the same night.
    @Test func healthAutoExportsSamplesMakeTheSameNightAsTheExport() throws {
        let folder = try TempFolder()
        func point(_ value: String, _ start: String, _ end: String, _ source: String) -> String {
            #"{"startDate": "\#(start)", "endDate": "\#(end)", "value": "\#(value)", "qty": 1, "source": "\#(source)"}"#
        }
        let file = try folder.write("push.json", """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              \(point("In Bed", "2024-01-10 22:45:00 +0000", "2024-01-11 06:45:00 +0000", "iPhone")),
              \(point("Core", "2024-01-10 23:00:00 +0000", "2024-01-11 01:00:00 +0000", "Apple Watch")),
              \(point("Deep", "2024-01-11 01:00:00 +0000", "2024-01-11 02:00:00 +0000", "Apple Watch")),
              \(point("REM", "2024-01-11 02:00:00 +0000", "2024-01-11 03:00:00 +0000", "Apple Watch")),
              \(point("Awake", "2024-01-11 03:00:00 +0000", "2024-01-11 03:10:00 +0000", "Apple Watch")),
              \(point("Core", "2024-01-11 03:10:00 +0000", "2024-01-11 06:30:00 +0000", "Apple Watch")),
              \(point("Asleep", "2024-01-10 23:30:00 +0000", "2024-01-11 06:00:00 +0000", "iPhone"))
            ]}]}}
            """)
        let (_, readings) = try readAll(file)
        #expect(readings == [Self.night])
    }
}
