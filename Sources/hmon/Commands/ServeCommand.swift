import ArgumentParser
import Foundation
import HealthCore
import HMonCommandLine
import HealthServer
import Logging

/// `hmon serve`: the SAMI-compatible REST API over the local store, for scales, phones, scripts and other
/// terminals (`hmon --server URL`). Stops gracefully on Ctrl-C or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over the SAMI REST API (OAuth2 sign-in, /v1.1 devices and messages).",
        discussion: """
            Listens on 127.0.0.1 by default: pass --host 0.0.0.0 to serve other machines, behind a TLS proxy \
            (tokens and passwords travel in the clear over plain HTTP). One log line per request goes to \
            standard error.
            """)

    @OptionGroup var database: DatabaseOption

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(name: .customLong("rate-limit"),
            help: ArgumentHelp("Requests per minute/per day for each token (or address), or \"off\".", valueName: "minute/day"))
    var rateLimit = RateLimit.defaultForServe.description

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port: use 1–65535 (0 for any free port)") }
        guard rateLimit == "off" || RateLimit(rateLimit) != nil else {
            throw ValidationError("--rate-limit \(rateLimit) is not PER-MINUTE/PER-DAY (e.g. 100/1000, the day's at least the minute's) or off")
        }
    }

    func run() async throws {
        let opener = StoreOpener(database)
        let store = try opener.openStore(.create, patience: .standard)
        var logger = Logger(label: "hmon.server") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = .info
        let configuration = ServerConfiguration(host: host, port: port, rateLimit: RateLimit(rateLimit))
        let host = self.host
        try await HMonServer.run(store: store, configuration: configuration, logger: logger) { port in
            // Written unbuffered: scripts and tests wait for this line to know the port.
            FileHandle.standardOutput.write(Data("hmon: serving \(TerminalText.escaped(store.path)) on http://\(host):\(port) (Ctrl-C stops)\n".utf8))
        }
        printEscaped("hmon: stopped")
    }
}
