import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// Reading scale apps' CSV exports: Withings' weight.csv and openScale's two layouts.
@Suite struct CSVReadingTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    @Test func withingsWeightCSVWithQuotedCommentsAndBodyComposition() throws {
        let folder = try TempFolder()
        let file = try folder.write("weight.csv", """
        Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments
        "2024-01-15 07:30:12",80.5,20.125,3.1,57.2,41.0,"after a run, ""felt good""
        second line of the comment"
        "2024-07-01 06:00:00",79,,,,,

        """)
        let (result, readings) = try readAll(file, timeZone: berlin)

        #expect(result.format == .withingsCSV)
        #expect(readings.map(\.source) == ["Withings", "Withings"])
        #expect(readings.map(\.value) == [80.5, 79])
        // Local Berlin time: +01:00 in January, +02:00 (summer time) in July.
        #expect(readings.map(\.timestamp) == [ms("2024-01-15T06:30:12Z"), ms("2024-07-01T04:00:00Z")])
        #expect(readings[0].extras["fatRatio"] == 25)
        #expect(readings[0].extras["muscleMass"] == 57.2)
        #expect(readings[1].extras.isEmpty)
    }

    @Test func openScaleCurrentExportWithSeparateDateAndTime() throws {
        let folder = try TempFolder()
        let file = try folder.write("openScale.csv", """
        DATE,TIME,WEIGHT,FAT,WATER,MUSCLE,COMMENT
        2024-03-01,07:05,70.2,21.5,55.0,40,
        2024-03-02,07:06:30,70.0,,,,"light, late dinner"

        """)
        let (result, readings) = try readAll(file, timeZone: berlin)

        #expect(result.format == .openScaleCSV)
        #expect(readings.map(\.source) == ["openScale", "openScale"])
        #expect(readings.map(\.timestamp) == [ms("2024-03-01T06:05:00Z"), ms("2024-03-02T06:06:30Z")])
        #expect(readings[0].extras["fatRatio"] == 21.5)
        #expect(abs((readings[0].extras["muscleMass"] ?? 0) - 28.08) < 1e-9)
    }

    @Test func aSemicolonSeparatedExportWithDecimalCommasReadsTheSame() throws {
        let folder = try TempFolder()
        let file = try folder.write("openScale.csv", """
        DATE;TIME;WEIGHT;FAT;WATER;MUSCLE;COMMENT
        2024-03-01;07:05;70,2;21,5;55,0;40;
        2024-03-02;07:06:30;70,0;;;;"light; late dinner"

        """)
        let (result, readings) = try readAll(file, timeZone: berlin)

        #expect(result.format == .openScaleCSV)
        #expect(readings.map(\.timestamp) == [ms("2024-03-01T06:05:00Z"), ms("2024-03-02T06:06:30Z")])
        #expect(readings.map(\.value) == [70.2, 70.0])
        #expect(readings[0].extras["fatRatio"] == 21.5)
    }

    @Test func openScaleOlderExportWithDateTime() throws {
        let folder = try TempFolder()
        let file = try folder.write("old.csv", """
        "dateTime","weight","fat","water","muscle","comment"
        "2019-11-03 08:15","68.9","0.0","0.0","0.0",""

        """)
        let (result, readings) = try readAll(file, timeZone: berlin)

        #expect(result.format == .openScaleCSV)
        #expect(readings.map(\.value) == [68.9])
        #expect(readings.map(\.timestamp) == [ms("2019-11-03T07:15:00Z")])
        #expect(readings[0].extras.isEmpty, "zero fat means not measured")
    }

    @Test func aRowWithABadNumberStopsWithLineAndColumnName() throws {
        let folder = try TempFolder()
        let file = try folder.write("weight.csv", """
        Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments
        "2024-01-15 07:30:12",80.5,,,,,
        "2024-01-16 07:30:12",7o.2,,,,,

        """)
        #expect(importFailure(file) == "weight.csv:3: bad number \"7o.2\" in column \"Weight (kg)\"")
    }

    @Test func aRowWithABadDateStops() throws {
        let folder = try TempFolder()
        let file = try folder.write("openScale.csv", "DATE,TIME,WEIGHT\n2024-13-01,07:05,70.2\n")
        #expect(importFailure(file) == "openScale.csv:2: bad date \"2024-13-01 07:05\" in column \"DATE\" (expected like 2024-01-15 07:30)")
    }

    @Test func implausibleWeighInsAreSkippedAndCounted() throws {
        let folder = try TempFolder()
        let file = try folder.write("openScale.csv", "DATE,TIME,WEIGHT\n2024-03-01,07:05,0\n2024-03-02,07:05,700\n2024-03-03,07:05,70\n2024-03-04,07:05,\n")
        let (result, readings) = try readAll(file)
        #expect(readings.map(\.value) == [70])
        #expect(result.tally.skippedReasons == ["weight outside 1–650 kg": 2, "row without a weight": 1])
    }

    @Test func anUnclosedQuoteIsReportedWhereItOpens() throws {
        let folder = try TempFolder()
        let file = try folder.write("weight.csv", "Date,\"Weight (kg)\",Comments\n\"2024-01-15 07:30:12\",80.5,\"oops\n")
        #expect(importFailure(file) == "weight.csv:2: a quoted field that is never closed")
    }

    /// Issue 29, case 4: one 100 MiB row took 2.1 GB and was accepted. A field past 64 KB or a row past 256
    /// fields is refused at its line, before the row is held whole.
    @Test(arguments: [
        ("Date,\"Weight (kg)\",Comments\n\"2024-01-15 07:30:12\",80.5,\"" + String(repeating: "x", count: 70_000) + "\"\n",
         "weight.csv:2: a field longer than 64 KB: not a CSV of readings"),
        ("Date,\"Weight (kg)\",Comments\n\"2024-01-15 07:30:12\",80.5" + String(repeating: ",", count: 300) + "\n",
         "weight.csv:2: a row of more than 256 fields: not a CSV of readings"),
    ])
    func anOversizedFieldOrRowIsRefusedAtItsLine(text: String, expected: String) throws {
        let folder = try TempFolder()
        let message = try #require(importFailure(try folder.write("weight.csv", text)))
        #expect(message == expected)
    }
}
