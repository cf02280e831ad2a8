import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage

/// Any CSV of weigh-ins whose columns the person names (`hmon import --columns`): its weights come in, with
/// their fat, once; a named column the header lacks is refused at the header's line, naming what it has.
@Suite struct NamedColumnsCSVTests {
    static let scaleFile = """
        Timestamp;Body Weight;Fat%;Note
        2026-03-01 07:00;80,5;22,1;after a run
        2026-03-02 07:05;80,1;;

        """

    static func read(_ file: URL, _ columns: [ImportColumn: String], weightUnit: MassUnit? = nil) throws -> (ImportResult, [ImportedReading]) {
        var readings: [ImportedReading] = []
        let result = try Importer.read(file, timeZone: TimeZone(identifier: "UTC")!,
                                       options: ImportOptions(weightUnit: weightUnit, columns: columns)) { readings.append($0) }
        return (result, readings)
    }

    @Test func theNamedColumnsGiveTheWeighInsWithTheirFat() throws {
        let folder = try TempFolder()
        let file = try folder.write("scale.csv", Self.scaleFile)
        let (result, readings) = try Self.read(file, [.date: "Timestamp", .weight: "body weight", .fat: "Fat%"])
        #expect(result.format == .namedColumnsCSV)
        #expect(readings.map(\.value) == [80.5, 80.1])
        #expect(readings.first?.timestamp == ms("2026-03-01T07:00:00Z"))
        #expect(readings.first?.extras[ReadingKind.bodyFat.field] == 22.1)
        #expect(readings.last?.extras.isEmpty == true)
        let (_, pounds) = try Self.read(file, [.date: "Timestamp", .weight: "Body Weight"], weightUnit: .lb)
        #expect(pounds.first?.value == 80.5 * MassUnit.kgPerPound)
    }

    @Test func aColumnTheHeaderLacksIsRefusedAtItsLine() throws {
        let folder = try TempFolder()
        let file = try folder.write("scale.csv", Self.scaleFile)
        do {
            _ = try Self.read(file, [.date: "Timestamp", .weight: "Body Mass"])
            Issue.record("a missing column was accepted")
        } catch let error as ImportError {
            #expect(error.description == """
                scale.csv:1: no weight column "Body Mass" (--columns weight=…) in the header, which has "Timestamp", "Body Weight", "Fat%", "Note": name it with --columns weight=NAME
                """)
        }
        // Not named, the date is looked for under its own name, and this header has none.
        #expect(throws: ImportError.self) { try Self.read(file, [.weight: "Body Weight"]) }
    }

    @Test func aSecondImportAddsNothing() async throws {
        let folder = try TempFolder()
        let file = try folder.write("scale.csv", Self.scaleFile)
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        let options = ImportOptions(columns: [.date: "Timestamp", .weight: "Body Weight", .fat: "Fat%"])
        #expect(try await store.importFile(file, userID: user.id, options: options).tally.added[.weight] == 2)
        let again = try await store.importFile(file, userID: user.id, options: options)
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThere[.weight] == 2)
    }
}
