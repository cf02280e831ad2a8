import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon`: with no subcommand, the dashboard; the subcommands work on the same store from scripts.
/// The process starts in `main.swift`, which calls `launch()`.
struct HMon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hmon",
        abstract: "A terminal health monitor: weight readings and today's energy balance.",
        version: HMonVersion.current,
        subcommands: [DashboardCommand.self, UserCommand.self, ProfileCommand.self, DeviceCommand.self, AddCommand.self,
                      ReadingCommand.self, UndoCommand.self, HRVCommand.self, ImportCommand.self, ExportCommand.self, DemoCommand.self,
                      ServeCommand.self, ClientCommand.self, SnapshotCommand.self, KeysCommand.self, TrendCommand.self,
                      InsightsCommand.self, SleepCommand.self, MCPCommand.self, TokenCommand.self, LinkCommand.self, SourcesCommand.self,
                      ExistCommand.self, DatabaseCommand.self, AlertCommand.self],
        // `hmon` and `hmon --demo` open the dashboard. As a default subcommand (not options of the root)
        // its --db cannot shadow the --db of the other subcommands. `DirectParse` knows it too.
        defaultSubcommand: DashboardCommand.self
    )

    /// Runs the command as a task while the main thread serves the main actor from its run loop; the
    /// task ends the process. Why not an `async` entry point: on Linux that parks the main thread in
    /// `dispatch_main`, which ends it with `pthread_exit`, and unwinding its stack read some 700 KB of
    /// unwind tables into every launch's memory.
    static func launch() -> Never {
        Task { @MainActor in
            await runCommandLine()
            Foundation.exit(0)
        }
        RunLoop.main.run()
        // The run loop returns only when it has nothing left to serve, which the main queue never is.
        dispatchMain()
    }

    /// Runs the command; a failure is one line on standard error, `hmon: <message>`, with exit code 1
    /// (2 for a usage mistake). Help and version requests keep the argument parser's own output.
    static func runCommandLine() async {
        // Arguments are decoded with U+FFFD in place of bytes that are not UTF-8, and a device name or a
        // comment would be stored that way without a word: refused before parsing.
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index], String(validatingCString: argument) == nil else { continue }
            fail("argument \(index) is not valid UTF-8 text: type it again in a UTF-8 terminal (check LANG)", code: 2)
        }
        var command: any ParsableCommand
        switch parse(Array(CommandLine.arguments.dropFirst())) {
        case .run(let parsed): command = parsed
        case .answer(let answer): exit(withError: answer)
        case .mistake(let message): fail(message, code: 2)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ExitCode {
            exit(withError: error)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            fail(FailureText.message(for: error), escaped: true)
        }
    }

    /// The message is escaped (`TerminalText`) unless it already is: it may quote an argument, a name
    /// or a file's bytes.
    private static func fail(_ message: String, code: Int32 = 1, escaped: Bool = false) -> Never {
        let text = escaped ? message : TerminalText.escaped(message)
        FileHandle.standardError.write(Data("hmon: \(text)\n".utf8))
        Foundation.exit(code)
    }
}
