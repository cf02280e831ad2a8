import Foundation
import TestSupport
import Testing
@testable import HealthCore

/// `hmon import` as a person runs it: the built binary in a subprocess, its output and exit code.
@Suite struct ImportCommandTests {
    /// The `hmon` this build made, next to the test bundle; a missing one fails the test saying where it looked.
    static func hmon() throws -> URL {
        try BuiltProducts.executable(named: "hmon")
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        try run(executable: hmon().path, arguments)
    }

    static func run(executable: String, _ arguments: [String]) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["HMON_DB"] = nil
        let finished = try SpawnedProcess.run(URL(fileURLWithPath: executable), arguments, environment: environment)
        return Run(status: finished.status, stdout: finished.output, stderr: finished.errors)
    }

    /// A store with the account "ana", and its path.
    static func store(in folder: TempFolder) async throws -> String {
        let path = folder.url.appendingPathComponent("hmon.sqlite").path
        let store = try LocalStore(url: URL(fileURLWithPath: path), passwordHasher: .fastForTests)
        _ = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        return path
    }

    @Test func importPrintsOneSummaryLineWhenNotOnATerminal() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthReadingTests.mixedExport)

        let first = try Self.run(["import", file.path, "--db", db, "--user", "ana"])
        #expect(first.status == 0)
        // The HRV record's two beats are too few to compute HRV from: the one skipped.
        #expect(first.stdout == "export.xml: added 14, already there 0, skipped 1\n")
        #expect(first.stderr == "")

        let second = try Self.run(["import", file.path, "--db", db])
        #expect(second.stdout == "export.xml: added 0, already there 14, skipped 1\n")
    }

    @Test func aMalformedFileFailsWithItsPlaceAndNothingIsImported() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthXML.document("""
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" startDate="2024-01-02 07:15:00 +0100" value="72.4/>
        """))

        let run = try Self.run(["import", file.path, "--db", db, "--user", "ana"])
        #expect(run.status == 1)
        #expect(run.stderr == "hmon: export.xml:\(MalformedExportTests.bodyLine):104: unterminated attribute value; nothing was imported\n")
        #expect(run.stdout == "")
    }

    @Test func dryRunAndQuiet() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthReadingTests.mixedExport)

        let dry = try Self.run(["import", file.path, "--db", db, "--dry-run"])
        #expect(dry.stdout == "export.xml: would add 14, already there 0, skipped 1\n")
        let quiet = try Self.run(["import", file.path, "--db", db, "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "" && quiet.stderr == "")
        let after = try Self.run(["import", file.path, "--db", db, "--dry-run"])
        #expect(after.stdout == "export.xml: would add 0, already there 14, skipped 1\n")
    }

    @Test func aFileThatIsNoExportIsRefused() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("notes.txt", "shopping list\n")

        let run = try Self.run(["import", file.path, "--db", db])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("hmon: notes.txt: not a file hmon can import: expected an Apple Health export"))
        let missing = try Self.run(["import", folder.url.appendingPathComponent("nothing.zip").path, "--db", db])
        #expect(missing.status == 1)
        #expect(missing.stderr == "hmon: nothing.zip: cannot open the file: No such file or directory; nothing was imported\n")
    }

    @Test func importWithoutAFileIsAUsageError() throws {
        let run = try Self.run(["import"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("hmon: "))
    }

    @Test func onATerminalItDrawsProgressThenTheFullSummary() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthReadingTests.mixedExport)
        // `script` gives hmon a pseudo-terminal for standard output and standard error.
        let script = try #require(InstalledTool.path(of: "script"), "util-linux `script` is needed for this test")
        let command = [try Self.hmon().path, "import", file.path, "--db", db].map { "'\($0)'" }.joined(separator: " ")
        let run = try Self.run(executable: script.path, ["-qfec", command, "/dev/null"])

        #expect(run.status == 0)
        let screen = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(screen.contains("\r\u{1B}[Kexport.xml  "), "the progress line is drawn in place")
        #expect(screen.contains(" · 14 readings"))
        #expect(screen.contains("added 14 readings: 2 weights, 2 heights, 1 active energy, 1 resting energy, 2 energy consumed, 1 HRV, "
                               + "2 step counts, 1 resting heart rate, 1 body fat, 1 lean mass\n"))
        #expect(screen.contains("profile: filled date of birth, sex, height\n"))
    }
}
