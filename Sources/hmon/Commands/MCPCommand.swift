import ArgumentParser
import Foundation
import HMonCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// `hmon mcp`: runs `hmon-mcp`, the Model Context Protocol server, with the same arguments, in this
/// process's place (so an assistant app's pipes and signals reach it unchanged). `hmon-mcp` is a program of
/// its own so that `hmon` does not link the MCP SDK's networking (libcurl); it is looked for beside this
/// `hmon`, then on PATH.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve one user's data, read only, to an AI assistant over the Model Context Protocol (runs hmon-mcp).",
        discussion: """
            Runs `hmon-mcp` with these arguments (see `hmon-mcp --help`): --db, --server, --user, --demo. \
            hmon-mcp is looked for beside hmon, then on PATH. See docs/mcp.md for an assistant's configuration.
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "hmon-mcp's arguments.")
    var arguments: [String] = []

    func run() throws {
        guard let program = Self.program() else {
            throw CommandError("""
                hmon mcp runs hmon-mcp, which is neither beside this hmon nor on PATH: build it with \
                `swift build -c release --static-swift-stdlib --product hmon-mcp` and install it beside hmon
                """)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        throw CommandError("cannot run \(program): \(reason)")
    }

    /// `hmon-mcp` beside the running `hmon` (its real path, links followed), else the first on PATH.
    static func program() -> String? {
        let files = FileManager.default
        let running = (try? files.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let beside = URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("hmon-mcp").path
        if files.isExecutableFile(atPath: beside) { return beside }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/hmon-mcp" }.first { files.isExecutableFile(atPath: $0) }
    }
}
