import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// hmon's own export read back into a store: readings put together from their rows, typed by the
/// manifest, checked like new ones, all or nothing.
@Suite struct ExportImportTests {
    static let header = "time,device,device_type,field,value,unit,reading_id\n"

    @Test(arguments: StoreEngine.available) func rowsOfOneReadingBecomeOneReadingTypedByTheManifest(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let file = try world.folder.write("export.csv", Self.header + """
            2024-01-02T07:15:00.250+01:00,Bathroom scale,Withings Device,weight,72.35,kg,r1
            2024-01-02T07:15:00.250+01:00,Bathroom scale,Withings Device,fatRatio,21.5,%,r1
            2024-01-02T12:00:00.000+01:00,Food log,Calorie Tracker,comments,650,,r2
            2024-01-02T12:00:00.000+01:00,Food log,Calorie Tracker,calories,650,kcal,r2

            """)
        let result = try await world.importExport(file)
        #expect(result.format == .hmonCSV)
        #expect(result.tally.added == [.weight: 1, .dietaryEnergy: 1])
        #expect(result.tally.addedByDevice == ["Bathroom scale": 1, "Food log": 1])
        let scale = try await world.store.reading(id: "r1", userID: world.user.id)
        // 07:15:00.250 at +01:00 is 06:15:00.250 UTC.
        #expect(scale.ts == ms("2024-01-02T06:15:00Z") + 250)
        #expect(scale.data == [Field.weight: .number(72.35), Field.fatRatio: .number(21.5)])
        // A text field keeps "650" as text; the number field reads it as a number.
        #expect(try await world.store.reading(id: "r2", userID: world.user.id).data
                == [Field.comments: .text("650"), Field.calories: .number(650)])
    }

    @Test(arguments: StoreEngine.available) func aBadRowNamesItsLineAndNothingIsKept(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let good = "2024-01-02T07:15:00.000+01:00,Bathroom scale,Withings Device,weight,72,kg,r1\n"
        let cases: [(String, String)] = [
            ("yesterday,Bathroom scale,Withings Device,weight,72,kg,r2\n", "export.csv:3: time \"yesterday\" is not an ISO 8601 instant"),
            ("2024-01-03T07:15:00.000+01:00,Bathroom scale,Withings Device,weight,heavy,kg,r2\n", "export.csv:3: weight \"heavy\" is not a number"),
            // One date and number rule for every importer: the Apple Health importer refuses these too.
            ("2026-02-30T07:15:00.000+01:00,Bathroom scale,Withings Device,weight,72,kg,r2\n",
             "export.csv:3: time \"2026-02-30T07:15:00.000+01:00\" is not an ISO 8601 instant (a real calendar date"),
            ("2024-01-03T07:15:00.000+99:00,Bathroom scale,Withings Device,weight,72,kg,r2\n",
             "export.csv:3: time \"2024-01-03T07:15:00.000+99:00\" is not an ISO 8601 instant"),
            ("2024-01-03T07:15:00.000+14:01,Bathroom scale,Withings Device,weight,72,kg,r2\n",
             "export.csv:3: time \"2024-01-03T07:15:00.000+14:01\" is not an ISO 8601 instant"),
            // The one date rule of every door: from 2000 on (the store's own floor is 1970).
            ("1999-12-31T07:15:00.000+01:00,Bathroom scale,Withings Device,weight,72,kg,r2\n",
             "export.csv:3: reading r2: the reading's time is before 2000: check the date"),
            ("2024-01-03T07:15:00.000+01:00,Bathroom scale,Withings Device,weight,0x40,kg,r2\n", "export.csv:3: weight \"0x40\" is not a number"),
            ("2024-01-03T07:15:00.000+01:00,Bathroom scale,Withings Device,weight,720,kg,r2\n", "export.csv:3: reading r2: weight 720 kg is outside 1–650 kg"),
            ("2024-01-03T07:15:00.000+01:00,Bathroom scale,Toaster,weight,72,kg,r2\n", "export.csv:3: no device type \"Toaster\""),
            ("2024-01-03T07:15:00.000+01:00,Other scale,Withings Device,fatRatio,20,%,r1\n", "export.csv:3: reading r1 has rows with different times or devices"),
        ]
        for (row, message) in cases {
            let file = try world.folder.write("export.csv", Self.header + good + row)
            await #expect(throws: ImportError.self) { try await world.importExport(file) }
            do {
                _ = try await world.importExport(file)
            } catch let error as ImportError {
                #expect(error.description.hasPrefix(message), "\(error)")
            }
            #expect(try await world.messageCount() == 0)
            #expect(try await world.store.devices(userID: world.user.id).isEmpty)
        }
    }

    /// Issue 29, case 4: the JSON export was decoded whole, so one huge row was held whole. The file is now
    /// read a megabyte at a time and split into rows of at most 64 KB, and a row that is no row of the
    /// export is refused where it stands.
    @Test(arguments: [
        ("[{\"device\":\"" + String(repeating: "x", count: 1 << 20) + "\"}]", "export.json:2: an object longer than 64 KB"),
        ("[{\"device\":{\"nested\":1}}]", "export.json:2: a value nested inside the row"),
        ("[{\"device\":\"Scale\"", "export.json:2: the file ends before its array does"),
        ("[{\"device\":\"Scale\"}]", "export.json:2: not a row of the JSON hmon export writes"),
        (#"[{"device":"Scale","device_type":"Withings Device","field":"weight","reading_id":"r1","time":5,"unit":"kg","value":72}]"#,
         "export.json:2: not a row of the JSON hmon export writes"),
        (#"[{"device":"Scale","device_type":"Withings Device","field":"weight","reading_id":"r1","time":"2024-01-02T07:15:00Z","unit":"kg","value":true}]"#,
         "export.json:2: not a row of the JSON hmon export writes"),
        ("[{\"device\":\"Scale\"}] trailing", "export.json:"),
    ])
    func aJSONRowThatIsNoRowIsRefusedAtItsRow(text: String, expected: String) async throws {
        let world = try await StoreImportTests.World(.sqlite)
        let file = try world.folder.write("export.json", text)
        do {
            _ = try await world.importExport(file)
            Issue.record("imported \(text.prefix(60))…")
        } catch let error as ImportError {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
        #expect(try await world.messageCount() == 0)
    }

    /// Files larger than the reader's megabyte chunk: rows cut at a chunk's edge come back whole.
    @Test(arguments: ["csv", "json"]) func anExportLongerThanAChunkComesBackWhole(format: String) async throws {
        let world = try await StoreImportTests.World(.sqlite)
        let count = 14_000  // about 1.1 MB of CSV and 2.2 MB of JSON
        let start = ms("2024-01-02T06:00:00Z")
        var text = format == "csv" ? Self.header : "[\n"
        for i in 0..<count {
            let time = ExportTime.format(start + Int64(i) * 60_000, timeZone: TimeZone(identifier: "Europe/Berlin")!)
            let weight = String(format: "%.1f", 60 + Double(i % 300) / 10)
            if format == "csv" {
                text += "\(time),Bathroom scale,Withings Device,weight,\(weight),kg,r\(i)\n"
            } else {
                text += (i == 0 ? "" : ",\n") + #"{"device":"Bathroom scale","device_type":"Withings Device","field":"weight","reading_id":"r\#(i)","time":"\#(time)","unit":"kg","value":\#(weight)}"#
            }
        }
        if format == "json" { text += "\n]\n" }
        try #require(text.utf8.count > ExportReader.chunkBytes)
        let result = try await world.importExport(try world.folder.write("export.\(format)", text))
        #expect(result.tally.added == [.weight: count])
        #expect(try await world.store.reading(id: "r13999", userID: world.user.id).data == [Field.weight: .number(60 + Double(13_999 % 300) / 10)])
    }

    @Test(arguments: StoreEngine.available) func anotherAccountsExportInTheSameStoreIsRefusedNotCountedAsThere(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let file = try world.folder.write("export.json", """
            [
            {"device":"Bathroom scale","device_type":"Withings Device","field":"weight","reading_id":"r1","time":"2024-01-02T07:15:00.000+01:00","unit":"kg","value":72}
            ]

            """)
        #expect(try await world.importExport(file).tally.addedTotal == 1)
        let bob = try await world.store.createUser(NewAccount(name: "bob", password: "secret-pw"))
        await #expect(throws: ImportError.self) { try await world.store.importExport(file, userID: bob.id, dryRun: false, now: Date()) }
        #expect(try await world.store.messageCount(userID: bob.id) == 0)
        #expect(try await world.importExport(file).tally.alreadyThere == [.weight: 1])
    }
    /// Issue 30, item 2: the export is streamed, a reading put together from rows next to each other. Rows of
    /// one reading found apart (a file sorted by hand) are refused where the second part stands, with how
    /// to mend the file, and nothing is kept.
    @Test(arguments: StoreEngine.available) func rowsOfOneReadingApartAreRefusedAndNothingIsKept(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let file = try world.folder.write("export.csv", Self.header + """
            2024-01-02T07:15:00.000+01:00,Bathroom scale,Withings Device,weight,72.4,kg,r1
            2024-01-02T08:00:00.000+01:00,Bathroom scale,Withings Device,weight,72.1,kg,r2
            2024-01-02T07:15:00.000+01:00,Bathroom scale,Withings Device,fatRatio,21.5,%,r1

            """)
        do {
            _ = try await world.importExport(file)
            Issue.record("imported a file whose reading r1 has rows apart")
        } catch let error as ImportError {
            #expect(error.description.hasPrefix("export.csv:4: reading r1 has rows apart from each other in the file"), "\(error)")
        }
        #expect(try await world.messageCount() == 0)
    }

    /// Many readings of several kinds on several devices, imported, exported and imported into another
    /// account's empty store: the same readings come back (ids, times, fields), and a second import adds none.
    @Test(arguments: StoreEngine.available, ["csv", "json"])
    func anExportComesBackAsTheSameReadingsAndASecondImportAddsNone(_ engine: StoreEngine, format: String) async throws {
        let world = try await StoreImportTests.World(engine)
        var text = format == "csv" ? Self.header : "[\n"
        var rows: [String] = []
        let start = ms("2024-03-01T05:00:00Z")
        for i in 0..<1_500 {
            let time = ExportTime.format(start + Int64(i) * 3_600_000, timeZone: TimeZone(identifier: "America/New_York")!)
            let fields: [(String, String, String, String, String)] = switch i % 3 {
            case 0: [("Bathroom scale", "Withings Device", "weight", "\(70 + Double(i % 50) / 10)", "kg"),
                     ("Bathroom scale", "Withings Device", "fatRatio", "\(20 + i % 7)", "%")]
            case 1: [("Food log", "Calorie Tracker", "calories", "\(300 + i)", "kcal"),
                     ("Food log", "Calorie Tracker", "comments", "meal \"\(i)\", with a comma", "")]
            default: [("Watch", "Activity Tracker", "steps", "\(i * 3)", "")]
            }
            for (device, type, field, value, unit) in fields {
                if format == "csv" {
                    let quoted = value.contains(",") ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
                    rows.append("\(time),\(device),\(type),\(field),\(quoted),\(unit),id\(i)\n")
                } else {
                    let json = Double(value) != nil && field != "comments" ? value
                        : "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
                    rows.append(#"{"device":"\#(device)","device_type":"\#(type)","field":"\#(field)","reading_id":"id\#(i)","time":"\#(time)","unit":"\#(unit)","value":\#(json)}"#)
                }
            }
        }
        text += format == "csv" ? rows.joined() : rows.joined(separator: ",\n") + "\n]\n"
        let file = try world.folder.write("export.\(format)", text)
        let first = try await world.importExport(file)
        #expect(first.tally.added == [.weight: 500, .dietaryEnergy: 500, .steps: 500])
        #expect(first.tally.addedByDevice == ["Bathroom scale": 500, "Food log": 500, "Watch": 500])
        let meal = try await world.store.reading(id: "id1", userID: world.user.id)
        #expect(meal.data == [Field.calories: .number(301), Field.comments: .text("meal \"1\", with a comma")])
        #expect(meal.ts == start + 3_600_000)
        let again = try await world.importExport(file)
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThere == [.weight: 500, .dietaryEnergy: 500, .steps: 500])
        #expect(try await world.messageCount() == 1_500)
    }
}
