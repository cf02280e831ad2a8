import ArgumentParser
import Testing
@testable import hmon

/// Every command in the tree, parsed in process: its help answers with its usage and what it does, and an
/// option it does not have is a usage mistake that names the option (exit 2, one line).
@Suite struct CommandTreeParseTests {
    @Test func theTreeHoldsEveryCommandPeopleRun() {
        let named = Set(CommandTree.all.map { $0.words.joined(separator: " ") })
        for words in ["add weight", "add energy", "add hrv", "reading list", "reading edit", "device merge", "link add",
                      "sources prefer", "serve", "snapshot", "import", "export", "exist", "undo", "insights", "trend", "mcp", "sleep",
                      "alert list", "alert test"] {
            #expect(named.contains(words), "hmon \(words) is not in the tree")
        }
        #expect(CommandTree.all.count > 40)
    }

    @Test func everyCommandsHelpShowsItsUsageAndWhatItDoes() {
        for command in CommandTree.all where !command.passesItsArgumentsOn {
            let parsed = HMon.parse(command.words + ["--help"])
            guard let help = parsed.answer else {
                Issue.record("hmon \(command.words.joined(separator: " ")) --help: \(parsed.mistake ?? "ran a command")")
                continue
            }
            let usage = (["USAGE: hmon"] + command.words).joined(separator: " ")
            #expect(help.contains(usage), "\(command.words): \(help.prefix(200))")
            let abstract = command.type.configuration.abstract
            #expect(!abstract.isEmpty, "hmon \(command.words.joined(separator: " ")) says nothing of what it does")
            #expect(help.contains(abstract.prefix(30)), "\(command.words): \(help.prefix(200))")
        }
    }

    @Test func anOptionACommandDoesNotHaveIsNamedInOneLine() {
        for command in CommandTree.all where command.isLeaf && !command.passesItsArgumentsOn {
            let message = HMon.parse(command.words + ["--no-such-option"]).mistake
            // A command that needs an argument or a choice says so first; it must still refuse, in one line.
            if let needs = HMon.parse(command.words).mistake {
                #expect(message == needs || message == "unknown option '--no-such-option' (see --help)", "\(command.words): \(message ?? "accepted")")
            } else {
                #expect(message == "unknown option '--no-such-option' (see --help)", "\(command.words): \(message ?? "accepted")")
            }
        }
    }

    @Test func aSubcommandThatDoesNotExistIsAMistakeNotTheDashboard() {
        for command in CommandTree.all where !command.isLeaf && !command.words.isEmpty {
            let parsed = HMon.parse(command.words + ["frobnicate"])
            #expect(parsed.mistake != nil, "\(command.words) frobnicate: \(String(describing: parsed.command))")
        }
    }

    @Test func theVersionAndCompletionScriptsAreAnswersWithExitZero() {
        for arguments in [["--version"], ["snapshot", "--version"], ["--demo", "--version"]] {
            #expect(HMon.parse(arguments).answer == "0.1.0", "\(arguments)")
        }
        let script = HMon.parse(["--generate-completion-script", "bash"]).answer ?? ""
        #expect(script.hasPrefix("#!/bin/bash") && script.contains("snapshot") && script.contains("device"))
    }
}
