import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 29, case 5, with the built `hmon`: every command that only reads works on a store it may not
/// write (a 0444 file in a 0555 folder) and, on any store, leaves no `-wal` or `-shm` file behind and
/// no byte of the store changed. Before, all of them failed in a read-only folder ("attempt to write a
/// readonly database"), left `-wal`/`-shm` beside a 0444 file, and `token list` and `import --dry-run`
/// changed the header of a writable store.
@Suite(.heavy) struct ReadOnlyCommandsTests {
    typealias Home = CommandLineTests.Home

    /// A store with alice, her scale, a weigh-in and a personal token; and an hmon export from another
    /// store, holding a weigh-in this one does not have, for `import --dry-run`.
    static func preparedHome() async throws -> (home: Home, newReadings: URL) {
        let home = try Home()
        try await home.userWithScale()
        try #require(try await home.hmon(["add", "weight", "72.4"]).status == 0)
        try #require(try await home.hmon(["token", "add", "--read-only", "--user", "alice"]).status == 0)
        let other = try Home()
        try await other.userWithScale()
        try #require(try await other.hmon(["add", "weight", "80.5"]).status == 0)
        let export = home.folder.file("other-export.csv")
        let exported = try await other.hmon(["export", "--format", "csv", "--output", export.path])
        try #require(exported.status == 0, "\(exported.stderr)")
        return (home, export)
    }

    /// A command that only reads, and a word its output must hold ("" for none).
    struct ReadingCommand {
        var arguments: [String]
        var expected: String
        /// Whether `--db STORE` goes after the arguments (`db copy` names the store as its first argument).
        var withDB = true
    }

    /// Each command that only reads.
    static func readingCommands(newReadings: URL, copyTarget: String) -> [ReadingCommand] {
        [
            ReadingCommand(arguments: ["device", "list"], expected: "Bathroom scale"),
            ReadingCommand(arguments: ["device", "types"], expected: "Withings Device"),
            ReadingCommand(arguments: ["user", "list"], expected: "alice"),
            ReadingCommand(arguments: ["profile", "show"], expected: "alice"),
            ReadingCommand(arguments: ["reading", "list"], expected: "72.4"),
            ReadingCommand(arguments: ["export", "--format", "json"], expected: "72.4"),
            ReadingCommand(arguments: ["trend"], expected: "72.4"),
            ReadingCommand(arguments: ["snapshot", "--screen", "weights", "--size", "100x30"], expected: "72.4"),
            ReadingCommand(arguments: ["insights"], expected: ""),
            ReadingCommand(arguments: ["insights", "--json"], expected: "\"insights\""),
            ReadingCommand(arguments: ["token", "list"], expected: "read-only"),
            ReadingCommand(arguments: ["import", "--dry-run", newReadings.path], expected: "1"),
            ReadingCommand(arguments: ["db", "copy", "STORE", copyTarget], expected: "", withDB: false),
        ]
    }

    /// The store's bytes, and which of its companion files exist.
    static func state(of db: URL) throws -> (digest: Data, companions: [String]) {
        let digest = try Data(contentsOf: db)
        let companions = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: db.path + $0) }
        return (digest, companions)
    }

    /// `runuser -u nobody --` when the tests run as root (root may write anything, so only another account
    /// meets the permissions a person's read-only store has); nil otherwise, or when root cannot switch:
    /// the read-only half then runs as this account.
    static let otherAccountPrefix: [String]? = {
        guard getuid() == 0, getpwnam("nobody") != nil,
              let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        return [runuser, "-u", "nobody", "--"]
    }()

    static func run(_ arguments: [String], in home: Home, withDB: Bool, asOtherAccount: Bool) async throws -> CommandLineTests.Outcome {
        let full = arguments.map { $0 == "STORE" ? home.db.path : $0 } + (withDB ? ["--db", home.db.path] : [])
        guard asOtherAccount, let prefix = otherAccountPrefix else {
            return try await home.hmon(full, withDB: false)
        }
        let hmon = try HMonBinary.url().path
        let finished = try await SpawnedProcess.running(URL(fileURLWithPath: prefix[0]), Array(prefix.dropFirst()) + [hmon] + full,
                                              environment: home.environment, stdin: "")
        return .init(status: finished.status, stdout: finished.output, stderr: finished.errors)
    }

    /// Runs every reading command: each exits 0 with its output, and leaves the store's bytes as `before`
    /// and no companion file behind.
    static func runEachLeavingTheStoreAsItWas(in home: Home, newReadings: URL, copies: TemporaryFolder,
                                              before: (digest: Data, companions: [String]), asOtherAccount: Bool) async throws {
        for command in readingCommands(newReadings: newReadings, copyTarget: copies.file("copy-\(UUID()).sqlite").path) {
            let shown = "hmon " + command.arguments.joined(separator: " ")
            let outcome = try await run(command.arguments, in: home, withDB: command.withDB, asOtherAccount: asOtherAccount)
            #expect(outcome.status == 0, "\(shown): \(outcome.stderr)")
            #expect(command.expected.isEmpty || outcome.stdout.contains(command.expected), "\(shown) printed \(outcome.stdout)")
            let after = try state(of: home.db)
            #expect(after.digest == before.digest, "\(shown) changed the store's bytes")
            #expect(after.companions.isEmpty, "\(shown) left \(after.companions) behind")
        }
    }

    @Test func readingCommandsLeaveAWritableStoreExactlyAsItWas() async throws {
        let (home, newReadings) = try await Self.preparedHome()
        let copies = try TemporaryFolder()
        let before = try Self.state(of: home.db)
        #expect(before.companions.isEmpty, "the last writer out cleans up: \(before.companions)")
        try await Self.runEachLeavingTheStoreAsItWas(in: home, newReadings: newReadings, copies: copies, before: before, asOtherAccount: false)
    }

    @Test func readingCommandsWorkOnA0444StoreInA0555Folder() async throws {
        let (home, newReadings) = try await Self.preparedHome()
        let copies = try TemporaryFolder()
        let folder = home.db.deletingLastPathComponent()
        if Self.otherAccountPrefix != nil {
            // The other account must reach the store, the export and its own home; the copy goes where it may write.
            for path in [home.folder.url.path, newReadings.path] { chmod(path, 0o755) }
            chmod(copies.url.path, 0o777)
        } else if getuid() == 0 {
            print("ReadOnlyCommandsTests: running as root without runuser or a nobody account: the read-only permissions do not hold root back, so this checks only that nothing is left behind")
        }
        try #require(chmod(home.db.path, 0o444) == 0 && chmod(folder.path, 0o555) == 0)
        defer { chmod(folder.path, 0o755); chmod(home.db.path, 0o644) }
        let before = try Self.state(of: home.db)
        try await Self.runEachLeavingTheStoreAsItWas(in: home, newReadings: newReadings, copies: copies, before: before, asOtherAccount: true)
        // A command that writes says the store is read-only, and writes nothing either.
        let refused = try await Self.run(["add", "weight", "70.1"], in: home, withDB: true, asOtherAccount: true)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(home.db.path), "\(refused.stderr)")
        #expect(try Self.state(of: home.db).digest == before.digest)
    }
}
