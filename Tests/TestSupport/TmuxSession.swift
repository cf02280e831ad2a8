import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tmux server of its own (`-L`) with one window running a plain bash in a temporary folder, for driving
/// the built `hmon` like a person at a terminal: keys go in with `send-keys`, the screen comes back with
/// `capture-pane`. `shutDown()` (or the end of the session) ends the server and removes the folder.
public final class TmuxSession: @unchecked Sendable {
    public let socket: String
    /// The shell's working folder; removed on shut-down.
    public let folder: URL
    /// What the shell, and commands run with `runOutside`, get on top of this process's environment.
    public let environment: [String: String]
    /// What the shell prints when it waits for a command.
    public let prompt: String
    private var isShutDown = false

    /// Waiting on the screen or a file gave up.
    public struct Timeout: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// Whether tmux can be run here.
    public static var isInstalled: Bool {
        (try? ChildProcess.run("tmux", ["-V"]).status) == 0
    }

    /// Starts the server and waits for the shell's prompt. `environment` gets the session's folder (to put
    /// HOME or XDG folders in it) and overrides the shell's defaults: UTF-8 and no history file.
    public init(width: Int = 80, height: Int = 24, prompt: String = "$ ",
                environment: (_ folder: URL) -> [String: String] = { _ in [:] }) async throws {
        let name = "hmon-test-\(UUID().uuidString.prefix(8))"
        socket = name
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        self.prompt = prompt
        // No history file: bash would write one on kill-server, into the folder while it is being removed.
        var shellEnvironment = ["LANG": "C.UTF-8", "HISTFILE": "/dev/null"]
            .merging(environment(folder)) { _, given in given }
        shellEnvironment["PS1"] = prompt
        self.environment = shellEnvironment
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        var arguments = ["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in shellEnvironment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        // The prompt set through -e does not reach bash's prompt, so the command line sets it too.
        let quotedPrompt = "'" + prompt.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        arguments += ["-c", folder.path, "env -u TMUX PS1=\(quotedPrompt) bash --norc --noprofile"]
        do {
            // The server this starts keeps the client's output open: give it nothing to hold on to.
            let command = ["-u", "-L", socket] + arguments
            let started = try await offThePool { try ChildProcess.run("tmux", command, capturingOutput: false) }
            guard started.status == 0 else {
                throw ChildProcess.Failed(command: "tmux new-session", status: started.status, errors: "")
            }
            // capture-pane drops trailing blanks, so the prompt shows without its final space.
            let visiblePrompt = prompt.trimmingCharacters(in: .whitespaces)
            try await waitForScreen("the shell prompt") { $0.contains(visiblePrompt) }
        } catch {
            shutDown()
            throw error
        }
    }

    deinit {
        shutDown()
    }

    /// Ends the tmux server and removes the folder; again is harmless.
    public func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        // Synchronous (deinit cannot wait for a task): kill-server returns within milliseconds.
        _ = try? ChildProcess.run("tmux", ["-u", "-L", socket, "kill-server"], capturingOutput: false)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a tmux command on this session's server and returns its output (on a thread of its own: the
    /// command is a child process, and waiting for it must not hold a thread of the task pool).
    @discardableResult
    public func tmux(_ arguments: [String]) async throws -> String {
        let socket = self.socket
        return try await offThePool { try ChildProcess.output(of: "tmux", ["-u", "-L", socket] + arguments) }
    }

    /// Types `text` literally, then Enter when asked.
    public func type(_ text: String, pressingEnter: Bool = false) async throws {
        try await tmux(["send-keys", "-t", "0", "-l", text])
        if pressingEnter { try await press("Enter") }
    }

    /// Presses keys by tmux name ("Enter", "Escape", "F5", "BTab", "C-a").
    public func press(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", "0"] + keys)
    }

    public func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The visible screen as text.
    public func screen() async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", "0"])
    }

    /// The pane with its colours and attributes as escape sequences (`capture-pane -e`): what tells one
    /// theme from another.
    public func styledScreen() async throws -> String {
        try await tmux(["capture-pane", "-p", "-e", "-t", "0"])
    }

    /// Polls the screen until `condition` holds and returns it; after `timeout` fails with the last screen.
    /// The deadline only guards against a hang: a debug hmon making its demo store beside every other
    /// suite on two cores once took more than 20 s to draw its first screen.
    @discardableResult
    public func waitForScreen(_ what: String, timeout: Duration = Waiting.patience, _ condition: (String) -> Bool) async throws -> String {
        var last = ""
        let shown = try await Waiting.firstValue(within: timeout, every: .milliseconds(50)) { () async throws -> String? in
            last = try await screen()
            return condition(last) ? last : nil
        }
        guard let shown else { throw Timeout(description: "the screen never showed \(what); it shows:\n\(last)") }
        return shown
    }

    /// Waits until a file the shell writes in the folder is there with a whole last line, and returns its text.
    public func waitForFile(_ name: String, timeout: Duration = Waiting.patience) async throws -> String {
        let path = folder.appendingPathComponent(name).path
        let written = await Waiting.firstValue(within: timeout, every: .milliseconds(50)) { () -> String? in
            guard let data = FileManager.default.contents(atPath: path),
                  let text = String(data: data, encoding: .utf8), text.hasSuffix("\n") else { return nil }
            return text
        }
        guard let written else { throw Timeout(description: "\(name) was never written") }
        return written
    }

    /// Runs a program to its end outside tmux (a second process, as from another terminal) with this
    /// session's environment, and returns its output; throws when it exits non-zero.
    @discardableResult
    public func runOutside(_ executable: URL, _ arguments: [String]) async throws -> String {
        let environment = self.environment
        return try await offThePool { try ChildProcess.output(of: executable.path, arguments, environment: environment) }
    }
}
