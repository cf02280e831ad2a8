import Foundation
import HealthCore
import HealthModel
import TestSupport
import Testing
import PostgresStorage

/// `hmon db copy` as people run it: a laptop's SQLite file onto the clinic's PostgreSQL and back.
@Suite(.heavy, .enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
struct DatabaseCopyCommandTests {
    @Test func aFileCopiedToPostgreSQLAndBackSignsInAndRefusesANonEmptyTargetWithoutForce() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("db-copy")
        defer { home.remove() }
        let file = home.folder.appendingPathComponent("laptop.sqlite").path
        let back = home.folder.appendingPathComponent("back.sqlite").path
        let url = try await TestPostgres.newDatabase()
        let env = home.environment

        let added = try await ServeCommandTests.run(binary, ["user", "add", "alice", "--db", file, "--password-stdin"],
                                                    input: "correct horse\n", environment: env)
        #expect(added.status == 0, "\(added.errors)")
        let device = try await ServeCommandTests.run(binary, ["device", "add", "--name", "Scale", "--type", "Withings Device", "--db", file],
                                                     input: "", environment: env)
        #expect(device.status == 0, "\(device.errors)")
        for kg in ["72.4", "72.1"] {
            let weight = try await ServeCommandTests.run(binary, ["add", "weight", kg, "--db", file], input: "", environment: env)
            #expect(weight.status == 0, "\(weight.errors)")
        }

        let there = try await ServeCommandTests.run(binary, ["db", "copy", file, url], input: "", environment: env)
        #expect(there.status == 0, "\(there.errors)")
        #expect(there.output.contains("1 accounts, 1 devices, 2 readings"), "\(there.output)")
        #expect(there.errors.isEmpty, "no progress line when standard error is not a terminal")

        // The account works on PostgreSQL with the password it had.
        let store = try await PostgresStore.open(try PostgresLocation(url), access: .readOnly)
        _ = try await store.authenticate(name: "alice", password: "correct horse")
        store.close()

        let again = try await ServeCommandTests.run(binary, ["db", "copy", file, url], input: "", environment: env)
        #expect(again.status != 0)
        #expect(again.errors.contains("is not empty (1 accounts, 2 readings)"), "\(again.errors)")
        #expect(again.errors.contains("--force"))
        let forced = try await ServeCommandTests.run(binary, ["db", "copy", "--force", file, url], input: "", environment: env)
        #expect(forced.status == 0, "\(forced.errors)")

        let home2 = try await ServeCommandTests.run(binary, ["db", "copy", url, back], input: "", environment: env)
        #expect(home2.status == 0, "\(home2.errors)")
        let list = try await ServeCommandTests.run(binary, ["snapshot", "--db", back, "--user", "alice"], input: "", environment: env)
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("72.1"), "\(list.output)")

        let missing = try await ServeCommandTests.run(binary, ["db", "copy", home.folder.appendingPathComponent("none.sqlite").path, url],
                                                      input: "", environment: env)
        #expect(missing.status != 0)
        #expect(missing.errors.contains("no hmon store at"), "\(missing.errors)")
    }
}

/// `--demo` makes its store in an SQLite file. With a PostgreSQL `--db` it says what to do instead of
/// taking the URL for a path (which made a file named "postgres:/…" where hmon was started).
@Suite(.heavy) struct DemoOnPostgreSQLTests {
    @Test func theDemoWithAPostgreSQLURLIsRefusedWithTheWayToGetThereAndMakesNoFile() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("demo-postgres")
        defer { home.remove() }
        let url = "postgres://hmon:hunter2@db.invalid/hmon"
        for arguments in [["snapshot", "--demo", "--db", url, "--screen", "weights"], ["demo", "--db", url]] {
            let refused = try await ServeCommandTests.run(binary, arguments, input: "", environment: home.environment)
            #expect(refused.status != 0, "\(arguments)")
            #expect(refused.errors.contains("the demo store is an SQLite file"), "\(refused.errors)")
            #expect(refused.errors.contains("hmon db copy PATH postgres://hmon:***@db.invalid/hmon"), "\(refused.errors)")
            #expect(!refused.errors.contains("hunter2"))
        }
        #expect(!FileManager.default.fileExists(atPath: "postgres:"), "no file named like the URL")
    }
}
