import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage

/// Libra's export (the Android weight diary): `#Version:` and `#Units:` lines and a blank one above a
/// `#date;weight;weight trend;body fat;…` header, semicolon-separated, each weigh-in's time an instant
/// (`2018-01-19T17:53:00.000Z`, or with an offset) in version 6, a local time in version 5. Libra's own
/// trend columns are not kept: hmon computes its own from the weigh-ins.
@Suite struct LibraImportTests {
    static let version6 = """
        #Version: 6
        #Units: kg

        #date;weight;weight trend;body fat;body fat trend;muscle mass;muscle mass trend;log
        2018-01-19T17:53:00.000Z;61.5;61.5;;;;;
        2023-01-13T22:19:24.978691Z;64.0;64.0;23.4;23.4;;;after the holidays
        2026-09-20T08:00:00.000+02:00;74.5;;;;;;

        """

    @Test func versionSixGivesEachWeighInAtItsInstantWithItsBodyFat() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try folder.write("Libra_2026-11-20.csv", Self.version6),
                                             timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        #expect(result.format == .libraCSV)
        #expect(readings.map(\.value) == [61.5, 64.0, 74.5])
        #expect(readings.map(\.timestamp) == [ms("2018-01-19T17:53:00Z"), ms("2023-01-13T22:19:24Z"),
                                              ms("2026-09-20T06:00:00Z")], "instants as written (to the second, as every CSV), whatever the machine's zone")
        #expect(readings.map { $0.extras[ReadingKind.bodyFat.field] } == [nil, 23.4, nil])
        #expect(readings.allSatisfy { $0.source == "Libra" })
    }

    @Test func poundsAndVersionFivesLocalTimesAreRead() throws {
        let folder = try TempFolder()
        let file = try folder.write("libra.csv", """
            #Version:5
            #Units:lb

            #date;weight;weight trend;body fat;body fat trend;comment
            2019-06-11 09:49:00;138.4;138.4;;;

            """)
        let (_, readings) = try readAll(file, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let kilograms = try #require(readings.first?.value)
        #expect(abs(kilograms - 138.4 * MassUnit.kgPerPound) < 1e-9)
        #expect(readings.first?.timestamp == ms("2019-06-11T07:49:00Z"), "a local time in the importing zone")
    }

    @Test func importingTheSameExportAgainAddsNothing() async throws {
        let folder = try TempFolder()
        let file = try folder.write("Libra.csv", Self.version6)
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        #expect(try await store.importFile(file, userID: user.id).tally.added[.weight] == 3)
        let again = try await store.importFile(file, userID: user.id)
        #expect(again.tally.added[.weight] == nil)
        #expect(again.tally.alreadyThere[.weight] == 3)
    }
}
