import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// `hmon user add` asking for the password on a real pseudo-terminal (made by util-linux `script`).
@Suite(.heavy) struct PasswordPromptTests {
    /// Runs `hmon ARGS` on a pseudo-terminal; `answer` is called with the output so far each time more
    /// arrives and returns what to type next (nil: nothing yet).
    /// `arguments` run by hmon on a terminal of their own, answered by `answer`, on a thread of their own: the
    /// reads wait on the child, and must not hold a thread of the task pool.
    private func onTerminal(_ arguments: [String], answer: @escaping (String) -> String?) async throws -> (status: Int32, output: String) {
        try await offThePool { try onTerminalBlocking(arguments, answer: answer) }
    }

    private func onTerminalBlocking(_ arguments: [String], answer: (String) -> String?) throws -> (status: Int32, output: String) {
        let script = try #require(InstalledTool.path(of: "script"), "util-linux `script` is needed for this test")
        let command = ([try HMonBinary.url().path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = try SpawnedProcess(script, ["-q", "-e", "-c", command, "/dev/null"], input: .pipe, mergeErrors: true)
        var seen = ""
        while true {
            let chunk = process.output.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
            if let typed = answer(seen) { process.write(typed) }
        }
        process.closeInput()
        return (process.wait(), seen)
    }

    @Test func thePasswordIsAskedTwiceAndNeverEchoed() async throws {
        let folder = try TemporaryFolder()
        let db = folder.file("hmon.sqlite")
        var asked = 0
        let result = try await onTerminal(["user", "add", "zed", "--db", db.path]) { output in
            let prompts = output.components(separatedBy: "Password for zed: ").count - 1
                + output.components(separatedBy: "Once more: ").count - 1
            guard prompts > asked else { return nil }
            asked = prompts
            return "s3cret-pw\r"
        }
        #expect(result.status == 0, "\(result.output)")
        #expect(asked == 2)
        #expect(!result.output.contains("s3cret-pw"))
        #expect(result.output.contains("created user zed"))
        let store = try LocalStore(url: db, passwordHasher: .fastForTests)
        #expect(try await store.authenticate(name: "zed", password: "s3cret-pw").name == "zed")
    }

    @Test func ctrlCAtThePromptCancelsAndWritesNothing() async throws {
        let folder = try TemporaryFolder()
        let db = folder.file("hmon.sqlite")
        var typed = false
        let result = try await onTerminal(["user", "add", "zed", "--db", db.path]) { output in
            guard !typed, output.contains("Password for zed: ") else { return nil }
            typed = true
            return "abc\u{03}"
        }
        #expect(result.status == 1)
        #expect(result.output.contains("hmon: cancelled"))
        let store = try LocalStore(url: db, passwordHasher: .fastForTests)
        #expect(try await store.users().isEmpty)
    }
}
