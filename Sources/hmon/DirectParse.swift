import ArgumentParser

/// The launches a person waits for, `hmon`, `hmon --demo` and `hmon snapshot …`, parsed by their own
/// command alone instead of through the whole tree.
///
/// Why: swift-argument-parser's root parse looks for `--generate-completion-script` on every launch by
/// parsing the arguments as two more commands, and builds the tree of all the subcommands; in a profile
/// of `hmon --version` that check was three quarters of the argument parsing. A command parsed as the
/// root skips the check only when its configuration names a super-command (`_superCommandName`,
/// experimental API of the package), so the dashboard and the snapshot name `hmon` as theirs; that name
/// is read only when the command is the root, so it changes nothing when the tree parses them.
///
/// Whatever this parse does not accept as the command itself (a mistake, `--help`, `--version`, a
/// completion request) returns nil, and the caller parses through the tree as before: every message,
/// help text and exit code stays the tree's own.
enum DirectParse {
    /// The subcommands parsed directly when they are named first.
    static let named: [String: any ParsableCommand.Type] = [
        "snapshot": SnapshotCommand.self,
        "dashboard": DashboardCommand.self,
    ]

    /// The command `arguments` (without the program's name) ask for, or nil to parse through the tree.
    static func command(_ arguments: [String]) -> (any ParsableCommand)? {
        // Completion requests belong to the tree; the direct parse would refuse them anyway.
        guard !arguments.contains(where: { $0 == "---completion" || $0.hasPrefix("--generate-completion-script") }) else {
            return nil
        }
        let type: any ParsableCommand.Type
        var rest = arguments
        if let first = arguments.first, let named = named[first] {
            type = named
            rest.removeFirst()
        } else if arguments.first.map({ $0.hasPrefix("-") }) ?? true {
            // No subcommand named: the tree would open its default subcommand, the dashboard.
            type = DashboardCommand.self
        } else {
            return nil
        }
        guard let command = try? type.parseAsRoot(rest), Swift.type(of: command) == type else {
            return nil  // a mistake, or the help the parser answers with a command of its own
        }
        return command
    }
}
