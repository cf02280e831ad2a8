import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A tmux server of its own (`-L`), one window running a plain shell, in a temporary folder whose XDG
/// directories the commands use. Keys go in with `send-keys`; the screen comes back with `capture-pane`.
final class TmuxSession {
    let socket: String
    let folder: URL
    let environment: [String: String]

    /// The built `hmon` next to the sources: `.build/debug/hmon` of this package.
    static let hmon: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/hmon")

    init(width: Int = 100, height: Int = 30) throws {
        socket = "hmon-e2e-\(UUID().uuidString.prefix(8))"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        environment = [
            "HOME": folder.path,
            "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            "TERM": "xterm-256color",
            "PS1": "e2e$ ",
            "LANG": "C.UTF-8",
            // No history file: bash would write one into the folder while it is being removed.
            "HISTFILE": "/dev/null",
        ]
        var arguments = ["new-session", "-d", "-x", "\(width)", "-y", "\(height)"]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments += ["-c", folder.path, "env -u TMUX PS1='e2e$ ' bash --norc --noprofile"]
        // The server this starts keeps the client's output open: give it nothing to hold on to.
        try Self.run("tmux", ["-L", socket, "-f", "/dev/null"] + arguments, captureOutput: false)
        _ = try waitFor("the shell prompt") { $0.contains("e2e$") }
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a tmux command on this session's server; returns its output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try Self.run("tmux", ["-L", socket] + arguments)
    }

    /// Types `text` literally, then Enter when asked.
    func type(_ text: String, enter: Bool = false) throws {
        try tmux(["send-keys", "-t", "0", "-l", text])
        if enter { try tmux(["send-keys", "-t", "0", "Enter"]) }
    }

    /// Sends named keys ("Enter", "Escape", "Tab").
    func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "0"] + keys)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "0", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The visible screen as text.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"])
    }

    /// Polls the screen until `condition` holds; fails with the last screen after `timeout` seconds.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 15, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? screen()) ?? ""
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Timeout(what: what, screen: last)
    }

    /// Runs a command to its end outside tmux (a second process), with this session's environment.
    @discardableResult
    func runOutside(_ executable: URL, _ arguments: [String]) throws -> String {
        try Self.run(executable.path, arguments, environment: environment)
    }

    /// Runs a program and waits for it, returning its standard output; throws when it exits non-zero.
    /// Foundation's `Process` is not used: on Linux it notices a child's exit through a socket the child
    /// inherits, and the tmux server started by `new-session` keeps that open for ever. So: posix_spawn,
    /// a pipe for the output (or /dev/null, so the server holds nothing of ours), and waitpid.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    captureOutput: Bool = true) throws -> String {
        var fds: [Int32] = [-1, -1], errorFDs: [Int32] = [-1, -1]
        if captureOutput { guard pipe(&fds) == 0, pipe(&errorFDs) == 0 else { throw CommandFailed(command: executable, status: -1, errors: "pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errorFDs[1], 2)
            for fd in fds + errorFDs { posix_spawn_file_actions_addclose(&actions, fd) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Test threads may block signals; the children must not inherit that (tmux must end on kill-server).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let merged = ProcessInfo.processInfo.environment.merging(environment ?? [:]) { _, new in new }
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        if captureOutput { close(fds[1]); close(errorFDs[1]) }
        guard spawned == 0 else {
            if captureOutput { close(fds[0]); close(errorFDs[0]) }
            throw CommandFailed(command: executable, status: -1, errors: String(cString: strerror(spawned)))
        }
        // Read standard error on another thread so that neither pipe can fill up and stall the child.
        let errorText = ErrorCollector()
        let errorFD = errorFDs[0]
        let reader: Thread? = captureOutput ? Thread { errorText.finish(Self.readAll(errorFD)) } : nil
        reader?.start()
        let output = captureOutput ? Self.readAll(fds[0]) : ""
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if captureOutput {
            while !errorText.isDone { usleep(1000) }
            close(fds[0]); close(errorFDs[0])
        }
        let exit: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exit == 0 else {
            throw CommandFailed(command: ([executable] + arguments).joined(separator: " "), status: exit, errors: errorText.text)
        }
        return output
    }

    private static func readAll(_ fd: Int32) -> String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Standard error of a child, filled by a reader thread.
    private final class ErrorCollector: Sendable {
        private let state = Mutex<(text: String, done: Bool)>(("", false))
        func finish(_ text: String) { state.withLock { $0 = (text, true) } }
        var text: String { state.withLock { $0.text } }
        var isDone: Bool { state.withLock { $0.done } }
    }

    struct Timeout: Error, CustomStringConvertible {
        var what: String
        var screen: String
        var description: String { "timed out waiting for \(what); the screen was:\n\(screen)" }
    }

    struct CommandFailed: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var errors: String
        var description: String { "\(command) exited \(status): \(errors)" }
    }
}
