import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
import CheckedNumbers
import RemoteClient

/// `hmon exist push`: sends daily weight, body fat, energy and HRV to an Exist-compatible server.
struct ExistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exist",
        abstract: "Work with Exist's API v2 (exist.io, or another `hmon serve`).",
        subcommands: [ExistPushCommand.self])
}

struct ExistPushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send each day's weight (carried forward up to 30 days), body fat, active and food energy (kJ) and HRV.",
        discussion: """
            The token (an OAuth2 access token with the attributes' *_write scopes) is read from --token-file \
            or $HMON_EXIST_TOKEN, never from the command line, and never printed. Without --since, only the \
            days whose values were not sent to this server before (or changed since) are sent.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: ArgumentHelp("The account whose data is sent (default: the signed-in user, or the only account).", valueName: "name"))
    var user: String?

    @Option(help: ArgumentHelp("The server: https://exist.io, or an `hmon serve` address.", valueName: "url"))
    var to: String

    @Option(name: .customLong("token-file"), help: ArgumentHelp("A file whose first line is the access token (default: $HMON_EXIST_TOKEN).", valueName: "path"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("Send every day from this one on (YYYY-MM-DD), even those sent before.", valueName: "date"))
    var since: String?

    @Flag(name: .customLong("dry-run"), help: "Print what would be sent, and send nothing.")
    var dryRun = false

    func validate() throws {
        guard let url = URL(string: to), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw ValidationError("--to \(to) is not a server address: pass one like https://exist.io or http://127.0.0.1:8080")
        }
        if let since, Day(iso: since) == nil { throw ValidationError("--since \(since) is not a date: pass YYYY-MM-DD") }
    }

    /// The token, trimmed; from the file, else the environment.
    private func token() throws -> String {
        let text: String
        if let tokenFile {
            do {
                text = try String(contentsOfFile: tokenFile, encoding: .utf8)
            } catch {
                throw CommandError("cannot read the token file \(tokenFile): check the path and that it is readable")
            }
            // Like ssh with a private key: a token others can read is not a secret any more.
            if let mode = (try? FileManager.default.attributesOfItem(atPath: tokenFile))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
                FileHandle.standardError.write(Data("hmon: warning: \(TerminalText.escaped(tokenFile)) can be read by others: chmod 600 it\n".utf8))
            }
        } else if let value = ProcessInfo.processInfo.environment["HMON_EXIST_TOKEN"], !value.isEmpty {
            text = value
        } else if dryRun {
            return ""
        } else {
            throw CommandError("no token: pass --token-file PATH or set HMON_EXIST_TOKEN")
        }
        let token = String(text.split(whereSeparator: \.isNewline).first ?? "").trimmingCharacters(in: .whitespaces)
        if token.isEmpty && !dryRun { throw CommandError("the token is empty: put the access token on the file's first line") }
        if token.contains(where: { $0.isWhitespace || $0.isNewline || !$0.isASCII }) {
            throw CommandError("the token holds spaces or characters a token cannot have: check the file")
        }
        return token
    }

    func run() async throws {
        let token = try token()
        let opener = StoreOpener(db: database.db, user: user)
        // Read and write: what was sent is remembered in the store.
        let service = LocalHealthService(store: try await opener.openStore(.readWrite))
        _ = try await opener.actingUser(on: service)
        let options = ExistPusher.Options(server: URL(string: to)!, token: token, since: since.flatMap(Day.init(iso:)), dryRun: dryRun)
        let pusher = ExistPusher(service: service, options: options)
        let summary = try await pusher.run()
        if dryRun {
            for value in summary.planned {
                printEscaped("\(value.day)  \(value.attribute.name)  \(Self.number(value.value))")
            }
        }
        for attribute in ExistPushPlan.attributes {
            let counts = summary.counts[attribute] ?? .init()
            let sent = dryRun ? "\(summary.planned.filter { $0.attribute == attribute }.count) to send" : "\(counts.sent) sent"
            printEscaped("\(attribute.name): \(sent), \(counts.unchanged) unchanged\(counts.failed > 0 ? ", \(counts.failed) failed" : "")")
        }
        for problem in summary.problems { printEscaped("  \(problem)") }
        if !dryRun {
            let waits = summary.rateLimitWaits > 0 ? ", \(summary.rateLimitWaits) waits for the rate limit" : ""
            printEscaped("\(summary.requests) requests to \(pusher.serverKey)\(waits)")
        }
        if summary.counts.values.contains(where: { $0.failed > 0 }) { throw ExitCode(1) }
    }

    /// 72.4, 7532, 0.215: as few digits as the value has (it was rounded to 3 places).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(rounding: value)) }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
