import Foundation
import TestSupport
import Testing

/// `hmon snapshot --db` run directly on a store, as scripts and the dashboard run: the same data on SQLite
/// and, copied by `hmon db copy`, on PostgreSQL draws the same screens, the second PostgreSQL run too (it
/// reads the day sums the first one kept).
@Suite(.heavy, .enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct SnapshotOnBothEnginesTests {
    @Test func eachScreenOfACopiedStoreReadsTheSameOnPostgreSQLAsOnSQLite() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("snapshot-engines")
        defer { home.remove() }
        let file = home.folder.appendingPathComponent("demo.sqlite").path
        let url = try await TestPostgres.newDatabase()
        let env = home.environment
        let made = try await ServeCommandTests.run(binary, ["demo", "--db", file], input: "", environment: env)
        #expect(made.status == 0, "\(made.errors)")
        let copied = try await ServeCommandTests.run(binary, ["db", "copy", file, url], input: "", environment: env)
        #expect(copied.status == 0, "\(copied.errors)")

        func frame(_ db: String, _ screen: String) async throws -> String {
            let run = try await ServeCommandTests.run(binary, ["snapshot", "--db", db, "--user", "demo", "--screen", screen,
                                                               "--size", "120x40", "--at", "2026-11-20 18:00"],
                                                      input: "", environment: env)
            #expect(run.status == 0, "\(screen): \(run.errors)")
            // All but the bottom line, the status bar, which names the store.
            return run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast(2).joined(separator: "\n")
        }
        for screen in ["weights", "energy", "insights", "overview"] {
            let onSQLite = try await frame(file, screen)
            #expect(onSQLite.split(separator: "\n").count >= 30, "\(screen): \(onSQLite)")
            for run in 1...2 {
                #expect(try await frame(url, screen) == onSQLite, "\(screen), PostgreSQL run \(run)")
            }
        }
    }
}
