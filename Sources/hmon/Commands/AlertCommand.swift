import ArgumentParser
import Foundation
import HealthAlerts
import HealthCore
import HMonCommandLine
import RemoteClient

/// `hmon alert …`: the alert rules `hmon serve` watches (`[[alerts]]` in config.toml).
struct AlertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert",
        abstract: "List the alert rules hmon serve watches, or send one now to test where it goes.",
        discussion: "Rules are [[alerts]] tables in config.toml (docs/server.md#alerts).",
        subcommands: [AlertListCommand.self, AlertTestCommand.self],
        defaultSubcommand: AlertListCommand.self
    )
}

/// Where the rules and their states are: config.toml (or --config) and the server's state file.
struct AlertFiles: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp("The file with the [[alerts]] tables (default: hmon's config.toml).", valueName: "file"))
    var config: String?

    var paths: HMonPaths { HMonPaths(environment: ProcessInfo.processInfo.environment) }
    var configFile: URL { config.map { URL(fileURLWithPath: $0) } ?? paths.configFile }
    var stateFile: URL { AlertFiles.stateFile(paths) }

    static func stateFile(_ paths: HMonPaths) -> URL { paths.dataDirectory.appendingPathComponent("alerts-state.json") }

    func rules() throws -> [AlertRule] {
        do {
            return try AlertRulesFile.load(from: configFile)
        } catch {
            throw CommandError(error.description)
        }
    }
}

struct AlertListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Each alert rule, where it sends, and its state as the server last saw it.")

    @OptionGroup var files: AlertFiles

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let rules = try files.rules()
        let states = AlertStates.read(from: files.stateFile)
        if json {
            let entries = rules.map { AlertListEntry(rule: $0, state: states.rules[$0.name]) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(entries), as: UTF8.self))
            return
        }
        guard !rules.isEmpty else {
            printEscaped("no alert rules in \(files.configFile.path): add [[alerts]] tables (docs/server.md#alerts)")
            return
        }
        for rule in rules {
            printEscaped(AlertListEntry(rule: rule, state: states.rules[rule.name]).line)
        }
    }
}

/// One rule as `hmon alert list` shows it.
struct AlertListEntry: Encodable {
    var name: String
    var when: String
    var to: String
    var user: String?
    var firing: Bool
    var since: Date?
    var lastChecked: Date?
    var lastSent: Date?
    var lastProblem: String?
    var sent: Int

    init(rule: AlertRule, state: AlertStates.Rule?) {
        name = rule.name
        when = rule.when
        to = rule.destination.shownPlace
        user = rule.user
        firing = state?.firing ?? false
        since = state?.since
        lastChecked = state?.lastChecked
        lastSent = state?.lastSent
        lastProblem = state?.lastProblem
        sent = state?.sent ?? 0
    }

    var line: String {
        let format = Date.ISO8601FormatStyle(timeZone: .current).year().month().day().time(includingFractionalSeconds: false)
        func at(_ date: Date?) -> String { date.map { $0.formatted(format) } ?? "never" }
        var state = lastChecked == nil ? "not checked yet (is hmon serve running?)"
            : firing ? "firing since \(at(since))" : "quiet" + (since.map { " since \(at($0))" } ?? "")
        state += "; last sent \(at(lastSent)) (\(sent) sent)"
        if let lastProblem { state += "; last problem: \(lastProblem)" }
        return "\(name): \(when)\(user.map { " for \($0)" } ?? "") to \(to): \(state)"
    }
}

struct AlertTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Send a test message of one alert rule now, to see that it arrives.")

    @OptionGroup var files: AlertFiles

    @Argument(help: "The rule's name (its name = in config.toml).")
    var name: String

    func run() async throws {
        let rules = try files.rules()
        guard let rule = rules.first(where: { $0.name == name }) else {
            let names = rules.map(\.name)
            throw CommandError("no alert named \(name) in \(files.configFile.path)"
                + (names.isEmpty ? ": add an [[alerts]] table there" : " (there are: \(names.joined(separator: ", ")))"))
        }
        let finding = AlertFinding(title: "hmon: test of \(rule.name)",
                                   message: "A test of your alert \"\(rule.name)\" (\(rule.when)): this is how hmon's alerts reach you.",
                                   tags: ["white_check_mark"])
        do {
            try await AlertDelivery(transport: PulledHTTPTransport(timeout: 15))
                .send(rule: rule, finding: finding, user: rule.user ?? "", now: Date(), test: true)
        } catch {
            throw CommandError("cannot deliver \(rule.name) to \(rule.destination.shownPlace): \(error)")
        }
        printEscaped("sent a test of \(rule.name) to \(rule.destination.shownPlace)")
    }
}
