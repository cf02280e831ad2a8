import ArgumentParser
@testable import hmon

/// Every command hmon has, by the words that name it: walked from the root's configuration, so a command
/// added later is in every test that goes through the tree.
enum CommandTree {
    struct Command {
        let words: [String]
        let type: any ParsableCommand.Type
        var isLeaf: Bool { type.configuration.subcommands.isEmpty }
        /// `hmon mcp` hands every argument, --help included, to the program it runs (`hmon-mcp`), whose own
        /// parse `HMonMCPParseTests` checks.
        var passesItsArgumentsOn: Bool { type == MCPCommand.self }
    }

    static let all: [Command] = walk(HMon.self, words: [])

    private static func walk(_ type: any ParsableCommand.Type, words: [String]) -> [Command] {
        [Command(words: words, type: type)] + type.configuration.subcommands.flatMap { sub in
            walk(sub, words: words + [sub._commandName])
        }
    }
}

extension HMon.ParsedCommandLine {
    /// The usage mistake's message, or nil for a command to run or the parser's answer.
    var mistake: String? {
        if case .mistake(let message) = self { message } else { nil }
    }

    var command: (any ParsableCommand)? {
        if case .run(let command) = self { command } else { nil }
    }

    /// What the parser prints for help, the version or a completion script; nil otherwise.
    /// A `--help` after a subcommand parses to the parser's own help command, whose run throws the help
    /// text as a clean exit; it is run here to read it, as hmon's launch does.
    var answer: String? {
        switch self {
        case .answer(let error):
            return HMon.exitCode(for: error) == .success ? HMon.fullMessage(for: error) : nil
        case .run(var command) where String(describing: type(of: command)) == "HelpCommand":
            do {
                try command.run()
                return nil
            } catch {
                return HMon.exitCode(for: error) == .success ? HMon.fullMessage(for: error) : nil
            }
        default:
            return nil
        }
    }
}
