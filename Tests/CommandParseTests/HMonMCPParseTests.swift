import ArgumentParser
import Testing
@testable import hmon
@testable import hmon_mcp

/// `hmon-mcp`'s command line, parsed in process: standard input is the protocol's, so a password cannot
/// come from it, and the demo store takes no other store.
@Suite struct HMonMCPParseTests {
    @Test func aPasswordFromStandardInputIsRefusedSayingWhy() {
        #expect(mistake(["--password-stdin"])
            == "--password-stdin cannot be used with mcp: standard input carries the protocol; sign in first with `hmon --server URL`")
        #expect(mistake(["--demo", "--db", "x.sqlite"]) == "--demo uses the local demo store: leave out --db and --server")
        #expect(mistake(["--bogus"]) == "Unknown option '--bogus'")
    }

    @Test func theStoreOptionsAreHmonsOwn() throws {
        let command = try HMonMCPCommand.parse(["--db", "health.sqlite", "--user", "alice"])
        #expect(command.store.database.db == "health.sqlite" && command.store.user == "alice" && !command.store.demo)
        #expect(HMonMCPCommand.helpMessage().contains("--server <url>"))
    }

    @Test func hmonMCPHandsEveryArgumentToHmonMCP() throws {
        let command = try #require(HMon.parse(["mcp", "--help", "--demo"]).command as? MCPCommand)
        #expect(command.arguments == ["--help", "--demo"])
        #expect(HMon.parse(["help", "mcp"]).answer?.contains("runs hmon-mcp") == true)
    }

    private func mistake(_ arguments: [String]) -> String? {
        do {
            _ = try HMonMCPCommand.parse(arguments)
            return nil
        } catch {
            return HMonMCPCommand.message(for: error)
        }
    }
}
