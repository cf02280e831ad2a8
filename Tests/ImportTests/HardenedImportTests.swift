import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// Issue 16 on the importer's side: line endings nobody expected, names that could drive a terminal,
/// numbers `Double(_:)` alone would take.
@Suite struct HardenedImportTests {
    static let withingsRows = [
        #"Date,"Weight (kg)","Fat mass (kg)",Comments"#,
        #""2024-01-15 07:30:12",80.5,20.125,"a ""quoted"" comment""#,
        #""2024-01-16 07:31:00",80.1,,"#,
    ]

    @Test(arguments: [("CR", "\r"), ("CRLF", "\r\n"), ("LF", "\n")])
    func aWithingsCSVReadsTheSameWithAnyLineEnding(ending: (name: String, text: String)) throws {
        let folder = try TempFolder()
        let file = try folder.write("weight.csv", Self.withingsRows.joined(separator: ending.text) + ending.text)
        let (result, readings) = try readAll(file)
        #expect(result.format == .withingsCSV, "\(ending.name)")
        #expect(readings.map(\.value) == [80.5, 80.1], "\(ending.name)")
        #expect(readings.map(\.timestamp) == [ms("2024-01-15T07:30:12Z"), ms("2024-01-16T07:31:00Z")], "\(ending.name)")
    }

    @Test func aBrokenLineInACROnlyFileIsNamedByItsLine() throws {
        let folder = try TempFolder()
        let rows = Self.withingsRows + [#""2024-01-17 07:31:00",80.1,"never closed"#]
        let file = try folder.write("weight.csv", rows.joined(separator: "\r"))
        #expect(importFailure(file)?.hasPrefix("weight.csv:4:") == true, "\(importFailure(file) ?? "no failure")")
    }

    @Test(arguments: StoreEngine.available) func aSourceNameWithControlCharactersBecomesAVisibleDeviceNameAndIsReported(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        // The attack from the issue: clear the screen, retitle the window, ring the bell.
        let evil = "Evil&#x1b;[2J&#x1b;]0;pwned&#x07;Scale&#x202E;"
        let xml = AppleHealthXML.document(
            AppleHealthXML.record("ActiveEnergyBurned", "80", unit: "kcal", at: "2024-01-02 07:15:00 +0100", source: evil))
        let result = try await world.importFile(try world.folder.write("export.xml", xml))

        let stored = "Evil\u{FFFD}[2J\u{FFFD}]0;pwned\u{FFFD}Scale\u{FFFD}"
        #expect(result.tally.added[.activeEnergy] == 1)
        #expect(try await world.deviceNames().keys.sorted() == [stored])
        #expect(result.tally.cleanedDeviceNames == [stored])
        // The stored name passes the rule every other entry enforces.
        #expect(TextRules.firstUnsafe(in: stored) == nil)

        // Importing again finds the same device and adds nothing: the readings' ids did not change.
        let again = try await world.importFile(try world.folder.write("export2.xml", xml))
        #expect(again.tally.addedTotal == 0)
        #expect(try await world.deviceNames().count == 1)

        // A weigh-in from that source lands on the scale, its source kept with the same characters replaced.
        let weighIn = AppleHealthXML.document(
            AppleHealthXML.record("BodyMass", "80", unit: "kg", at: "2024-01-02 07:15:00 +0100", source: evil))
        _ = try await world.importFile(try world.folder.write("weight.xml", weighIn))
        let scale = try #require(try await world.store.devices(userID: world.user.id).first { $0.name == "Scale" })
        let reading = try #require(try await world.store.lastMessages(deviceID: scale.id, userID: world.user.id, count: 1).first)
        #expect(reading.data[Field.source] == .text(stored))
    }

    @Test(arguments: ["nan", "inf", "0x40", "0x1p6", "1e309", String(repeating: "9", count: 400)])
    func aCSVWeightThatIsNotAPlainNumberIsNotImported(weight: String) throws {
        let folder = try TempFolder()
        let file = try folder.write("weight.csv", "Date,\"Weight (kg)\"\n\"2024-01-15 07:30:12\",\(weight)\n\"2024-01-16 07:30:12\",80\n")
        let outcome = Result { try readAll(file) }
        switch outcome {
        case .success(let (_, readings)):
            #expect(readings.map(\.value) == [80], "\(weight.prefix(20))")
        case .failure(let error):
            // Refusing the whole file is fine too; storing 64 kg or infinity is not.
            #expect("\(error)".contains("weight.csv:2"), "\(error)")
        }
    }
}
