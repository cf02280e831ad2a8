import ArgumentParser
import Foundation

extension HMon {
    /// What a command line asks for, before anything runs: the whole of parsing, kept apart from running
    /// so that every command's parse can be tested in process.
    enum ParsedCommandLine {
        /// A command to run.
        case run(any ParsableCommand)
        /// Help, the version or a completion script: the parser's own answer, printed as it is, exit 0.
        case answer(any Error)
        /// A usage mistake: the one line hmon prints after "hmon: ", exit 2.
        case mistake(String)
    }

    /// Parses `arguments` (without the program's name): the launches people wait for by their own command
    /// (`DirectParse`), the rest through the tree; a mistake's message is its first line, without the
    /// parser's "Error: ", starting in lower case, with a pointer to --help.
    static func parse(_ arguments: [String]) -> ParsedCommandLine {
        do {
            return .run(try DirectParse.command(arguments) ?? parseAsRoot(arguments))
        } catch {
            if exitCode(for: error) == .success { return .answer(error) }
            var message = self.message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
            message = String(message.split(separator: "\n").first ?? "")
            if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
            if let first = message.first { message = first.lowercased() + message.dropFirst() }
            return .mistake("\(shortened(message)) (see --help)")
        }
    }

    /// A usage message quotes the argument it refuses: a 100,000-digit "number" is shown by its start.
    static func shortened(_ message: String) -> String {
        message.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.count > 60 ? "\(word.prefix(24))…(\(word.count) characters)" : String(word)
        }.joined(separator: " ")
    }
}
