import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// `hmon import` of a Fitbit Takeout folder and of a CSV with `--columns`, as a person runs it: the built
/// binary, its output and its exit code.
@Suite struct ImportCommandDownloadTests {
    static func json(_ run: ImportCommandTests.Run) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
    }

    @Test func aFitbitTakeoutFolderImportsAndAgainAddsNothing() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let download = FitbitTakeoutImportTests.fixture.path

        let first = try await ImportCommandTests.run(["import", download, "--db", db, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let object = try Self.json(first)
        #expect(object["format"] as? String == "Fitbit export (Google Takeout)")
        let added = try #require(object["added"] as? [String: Any])
        #expect(added["total"] as? Int == 11)
        #expect((added["byKind"] as? [String: Int])?["weight"] == 3)

        let again = try await ImportCommandTests.run(["import", download, "--db", db, "--json"])
        #expect(((try Self.json(again))["added"] as? [String: Any])?["total"] as? Int == 0)
    }

    @Test func weightsOfUnknownUnitAskForTheFlagAndComeInWithIt() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let weights = try FitbitTakeoutImportTests.fixtureFiles().first { $0.0.hasSuffix("weight-2026-03-14.json") }!
        try folder.write("takeout/\(weights.0)", weights.1)
        let download = folder.url.appendingPathComponent("takeout").path

        let refused = try await ImportCommandTests.run(["import", download, "--db", db])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("pass --weight-unit kg or --weight-unit lb"), "\(refused.stderr)")
        #expect(refused.stderr.hasSuffix("; nothing was imported\n"))

        let run = try await ImportCommandTests.run(["import", download, "--db", db, "--json", "--weight-unit", "lb"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(((try Self.json(run))["added"] as? [String: Any])?["total"] as? Int == 3)
    }

    @Test func aCSVComesInWithColumnsAndABadPairIsAUsageError() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let file = try folder.write("scale.csv", NamedColumnsCSVTests.scaleFile)

        let without = try await ImportCommandTests.run(["import", file.path, "--db", db])
        #expect(without.status == 1)
        #expect(without.stderr.hasPrefix("hmon: scale.csv: not a file hmon can import"), "\(without.stderr)")

        let run = try await ImportCommandTests.run(["import", file.path, "--db", db, "--json",
                                                    "--columns", "date=Timestamp,weight=Body Weight,fat=Fat%"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(((try Self.json(run))["added"] as? [String: Any])?["total"] as? Int == 2)

        let missing = try await ImportCommandTests.run(["import", file.path, "--db", db, "--columns", "date=Timestamp,weight=Mass"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("hmon: scale.csv:1: no weight column \"Mass\""), "\(missing.stderr)")
        #expect(missing.stderr.hasSuffix("; nothing was imported\n"))

        let bad = try await ImportCommandTests.run(["import", file.path, "--db", db, "--columns", "when=Timestamp"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--columns: \"when=Timestamp\" is not COLUMN=NAME with COLUMN one of date, time, weight, fat"), "\(bad.stderr)")
    }
}
