import Foundation
import TestSupport
import Testing
@testable import HealthCore
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
}
