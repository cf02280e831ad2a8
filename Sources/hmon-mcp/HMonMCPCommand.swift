import ArgumentParser
import Foundation
import HMonCommandLine
import HMonMCP

/// `hmon-mcp`: a Model Context Protocol server over standard input and output, for an assistant app to
/// start: one user's store, read only.
///
/// Why a program of its own rather than a subcommand of `hmon`: the MCP SDK's HTTP transport imports
/// FoundationNetworking, which links libcurl; inside `hmon` every launch of the dashboard loaded it (and a
/// static release build needed libcurl's development files). `hmon mcp` still works: it runs this program.
@main
struct HMonMCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hmon-mcp",
        abstract: "Serve one user's data, read only, to an AI assistant over the Model Context Protocol (stdio).",
        discussion: """
            An assistant app starts `hmon-mcp` (or `hmon mcp`) and speaks the protocol on its standard input \
            and output; nothing else is written there (errors go to standard error). Tools: overview, trend, \
            energy, hrv, sleep, insights, readings; the same views as resources. Nothing can be written through \
            it. With --server, sign in first (`hmon --server URL`): its saved session is used, as standard input \
            is the protocol's. See docs/mcp.md for an assistant's configuration.
            """,
        version: HMonVersion.current
    )

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if store.remote.passwordStdin {
            throw ValidationError("--password-stdin cannot be used with mcp: standard input carries the protocol; sign in first with `hmon --server URL`")
        }
    }

    func run() async throws {
        let opener = StoreOpener(store)
        if let address = opener.serverAddress, try opener.remoteService(address).saved == nil {
            throw CommandError("not signed in to \(address): sign in once with `hmon --server \(address)`, then start hmon-mcp")
        }
        let opened = try await opener.open(.readOnly)
        try await MCPServer.run(service: opened.service, version: HMonVersion.current)
    }

    /// Parses and runs; a failure is one line on standard error, `hmon-mcp: <message>`, exit code 1 (2 for a
    /// usage mistake), as `hmon` words its own. Help and version keep the argument parser's own output.
    static func main() async {
        var command: HMonMCPCommand
        do {
            command = try parse()
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            FileHandle.standardError.write(Data("hmon-mcp: \(TerminalText.escaped(message(for: error))) (see --help)\n".utf8))
            Foundation.exit(2)
        }
        do {
            try await command.run()
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            FileHandle.standardError.write(Data("hmon-mcp: \(FailureText.message(for: error))\n".utf8))
            Foundation.exit(1)
        }
    }
}
