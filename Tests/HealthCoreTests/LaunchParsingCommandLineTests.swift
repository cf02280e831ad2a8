import Foundation
import Testing

/// `hmon`, `hmon --demo` and `hmon snapshot …` are parsed by their own command first, skipping the
/// completion-script check (issue 30, item 4). Help, version, completion scripts and every mistake still
/// answer as the whole command tree does.
@Suite struct LaunchParsingCommandLineTests {
    typealias Home = CommandLineTests.Home

    @Test func helpForTheSnapshotAndTheDashboardNamesThemUnderHmon() async throws {
        let home = try Home()
        for (arguments, usage) in [(["snapshot", "--help"], "USAGE: hmon snapshot [--screen <screen>]"),
                                   (["help", "snapshot"], "USAGE: hmon snapshot [--screen <screen>]"),
                                   (["dashboard", "--help"], "USAGE: hmon dashboard [--demo]"),
                                   (["--help"], "USAGE: hmon <subcommand>")] {
            let help = try await home.hmon(arguments, withDB: false)
            #expect(help.status == 0, "\(arguments): \(help.stderr)")
            #expect(help.stdout.contains(usage), "\(arguments): \(help.stdout)")
        }
        #expect(try await home.hmon(["--help"], withDB: false).stdout.contains("snapshot"))
    }

    @Test func versionIsAnsweredBeforeAndAfterTheSubcommand() async throws {
        let home = try Home()
        for arguments in [["--version"], ["snapshot", "--version"], ["--demo", "--version"]] {
            let version = try await home.hmon(arguments, withDB: false)
            #expect(version.status == 0, "\(arguments): \(version.stderr)")
            #expect(version.stdout == "0.1.0\n", "\(arguments)")
        }
    }

    @Test func completionScriptsAreStillGeneratedForTheWholeTree() async throws {
        let home = try Home()
        for arguments in [["--generate-completion-script", "bash"], ["snapshot", "--generate-completion-script", "bash"]] {
            let script = try await home.hmon(arguments, withDB: false)
            #expect(script.status == 0, "\(arguments): \(script.stderr)")
            #expect(script.stdout.hasPrefix("#!/bin/bash"), "\(arguments)")
            #expect(script.stdout.contains("snapshot") && script.stdout.contains("device"), "\(arguments)")
        }
    }

    /// Every mistake's line is tested in process (`UsageMistakeTests`); here, that the process prints it on
    /// standard error alone and exits 2, for a launch parsed directly and one parsed through the tree.
    @Test func mistakesKeepTheirMessageAndUsageExitCode() async throws {
        let home = try Home()
        let cases: [([String], String)] = [
            (["snapshot", "--bogus"], "hmon: unknown option '--bogus' (see --help)\n"),
            (["--demo", "--server", "http://127.0.0.1:1"], "hmon: --demo opens the local demo store: leave out --server (see --help)\n"),
            (["device", "list", "--bogus"], "hmon: unknown option '--bogus' (see --help)\n"),
        ]
        for (arguments, message) in cases {
            let refused = try await home.hmon(arguments, withDB: false)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr == message, "\(arguments)")
            #expect(refused.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test func aSnapshotParsedDirectlyDrawsTheAskedScreen() async throws {
        let home = try Home()
        let shot = try await home.hmon(["snapshot", "--demo", "--screen", "weights", "--size", "120x40"], withDB: false)
        #expect(shot.status == 0, "\(shot.stderr)")
        #expect(shot.stdout.contains("Weight"), "\(shot.stdout)")
        #expect(shot.stdout.split(separator: "\n", omittingEmptySubsequences: false).count >= 40)
    }
}
