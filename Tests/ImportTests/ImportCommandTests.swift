import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// `hmon import` as a person runs it: the built binary in a subprocess, its output and exit code.
@Suite(.heavy) struct ImportCommandTests {
    /// The `hmon` this build made, next to the test bundle; a missing one fails the test saying where it looked.
    static func hmon() throws -> URL {
        try BuiltHMon.url()
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) async throws -> Run {
        try await run(executable: hmon().path, arguments)
    }

    static func run(executable: String, _ arguments: [String]) async throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["HMON_DB"] = nil
        let finished = try await SpawnedProcess.running(URL(fileURLWithPath: executable), arguments, environment: environment)
        return Run(status: finished.status, stdout: finished.output, stderr: finished.errors)
    }

    /// A store with the account "ana", and its path.
    static func store(in folder: TempFolder) async throws -> String {
        let path = folder.url.appendingPathComponent("hmon.sqlite").path
        let store = try LocalStore(url: URL(fileURLWithPath: path), passwordHasher: .fastForTests)
        _ = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        return path
    }

    /// The summary's lines after the first (which says how long reading took).
    static func facts(_ stdout: String) -> [String] { Array(stdout.split(separator: "\n").dropFirst().map(String.init)) }

    @Test func importPrintsTheWholeSummaryWhenNotOnATerminal() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthReadingTests.mixedExport)

        let first = try await Self.run(["import", file.path, "--db", db, "--user", "ana"])
        #expect(first.status == 0)
        #expect(first.stdout.hasPrefix("export.xml: Apple Health export.xml, read in "))
        // Per kind, per device, and what was skipped and why: what a terminal shows.
        #expect(Self.facts(first.stdout) == [
            "added 15 readings: 2 weights, 2 heights, 1 active energy, 1 resting energy, 2 energy consumed, 1 HRV, 2 step counts, 1 resting heart rate, 1 body fat, 1 lean mass, 1 HRV with beats refused",
            "by device: Apple Watch 6, Scale 6, MyFitnessPal 2, Apple Watch (HRV Meter) 1",
            // The HRV record's two beats are too few to compute HRV from: the one skipped, and its record kept
            // on the watch's HRV meter with the reason (issue 28, item 2).
            "skipped 1: 1 HRV beat lists under 31 beats, too short to compute HRV from",
            "not kept: 4 other records and elements (ActivitySummary 1, ExportDate 1, HeartRate 1, Workout 1)",
            "profile: filled date of birth, sex, height",
        ])
        #expect(first.stderr == "")

        let second = try await Self.run(["import", file.path, "--db", db])
        #expect(Self.facts(second.stdout).prefix(2) == ["added 0 readings", "already there: 15 readings"])
    }

    @Test func jsonGivesScriptsTheSameFacts() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthReadingTests.mixedExport)

        let run = try await Self.run(["import", file.path, "--db", db, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.filter { $0 == "\n" }.count == 1, "one line")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let added = try #require(object["added"] as? [String: Any])
        #expect(added["total"] as? Int == 15)
        #expect((added["byKind"] as? [String: Int])?["weight"] == 2)
        #expect(object["addedByDevice"] as? [String: Int] == ["Apple Watch": 6, "Scale": 6, "MyFitnessPal": 2, "Apple Watch (HRV Meter)": 1])
        #expect(object["skipped"] as? [String: Int] == ["HRV beat lists under 31 beats, too short to compute HRV from": 1])
        #expect(object["format"] as? String == "Apple Health export.xml")
        #expect(object["dryRun"] as? Bool == false)
        #expect(try await Self.run(["import", file.path, "--db", db, "--json", "--quiet"]).status == 2)
    }

    @Test func aMalformedFileFailsWithItsPlaceAndNothingIsImported() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthXML.document("""
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" startDate="2024-01-02 07:15:00 +0100" value="72.4/>
        """))

        let run = try await Self.run(["import", file.path, "--db", db, "--user", "ana"])
        #expect(run.status == 1)
        #expect(run.stderr == "hmon: export.xml:\(MalformedExportTests.bodyLine):104: unterminated attribute value; nothing was imported\n")
        #expect(run.stdout == "")
    }

    @Test func dryRunAndQuiet() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("export.xml", AppleHealthReadingTests.mixedExport)

        let dry = try await Self.run(["import", file.path, "--db", db, "--dry-run"])
        #expect(dry.stdout.hasPrefix("export.xml: Apple Health export.xml, read in "))
        #expect(dry.stdout.split(separator: "\n").first?.hasSuffix("(dry run: nothing was written)") == true)
        #expect(Self.facts(dry.stdout).first?.hasPrefix("would add 15 readings: 2 weights") == true)
        let quiet = try await Self.run(["import", file.path, "--db", db, "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "" && quiet.stderr == "")
        let after = try await Self.run(["import", file.path, "--db", db, "--dry-run"])
        #expect(Self.facts(after.stdout).prefix(2) == ["would add 0 readings", "already there: 15 readings"])
    }

    @Test func aFileThatIsNoExportIsRefused() async throws {
        let folder = try TempFolder()
        let db = try await Self.store(in: folder)
        let file = try folder.write("notes.txt", "shopping list\n")

        let run = try await Self.run(["import", file.path, "--db", db])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("hmon: notes.txt: not a file hmon can import: expected an Apple Health export"))
        let missing = try await Self.run(["import", folder.url.appendingPathComponent("nothing.zip").path, "--db", db])
        #expect(missing.status == 1)
        #expect(missing.stderr == "hmon: nothing.zip: cannot open the file: No such file or directory; nothing was imported\n")
    }

    @Test func importWithoutAFileIsAUsageError() async throws {
        let run = try await Self.run(["import"])
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
        let run = try await Self.run(executable: script.path, ["-qfec", command, "/dev/null"])

        #expect(run.status == 0)
        let screen = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(screen.contains("\r\u{1B}[Kexport.xml  "), "the progress line is drawn in place")
        #expect(screen.contains(" · 15 readings"))
        #expect(screen.contains("added 15 readings: 2 weights, 2 heights, 1 active energy, 1 resting energy, 2 energy consumed, 1 HRV, "
                               + "2 step counts, 1 resting heart rate, 1 body fat, 1 lean mass, 1 HRV with beats refused\n"))
        #expect(screen.contains("profile: filled date of birth, sex, height\n"))
    }
}
