import Foundation

/// A private tmux server (its own socket) with one 80×24 window running a plain bash, for driving the built
/// `hmon` binary like a person at a terminal: type, press keys, read the screen.
final class TmuxSession {
    let socket = "hmon-test-\(UUID().uuidString.prefix(8))"
    let directory: URL

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(width: Int = 80, height: Int = 24) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)",
                  "-c", directory.path, "env PS1='$ ' LANG=C.UTF-8 bash --norc --noprofile"], startsServer: true)
    }

    /// Ends the tmux server and removes the session's folder.
    func shutDown() {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Types `line` into the shell and presses Enter.
    func typeLine(_ line: String) throws {
        try tmux(["send-keys", "-l", line])
        try tmux(["send-keys", "Enter"])
    }

    /// Presses keys by tmux name ("F5", "Up", "x", "C-a").
    func press(_ keys: String...) throws {
        try tmux(["send-keys"] + keys)
    }

    func capture() throws -> String {
        try tmux(["capture-pane", "-p"])
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the screen satisfies `condition` and returns it. The deadline only guards against a hang;
    /// nothing here measures speed.
    @discardableResult
    func waitForScreen(_ what: String, _ condition: (String) -> Bool) throws -> String {
        var screen = ""
        for _ in 0..<400 {
            screen = try capture()
            if condition(screen) { return screen }
            usleep(50_000)
        }
        throw Failure(description: "the screen never showed \(what); it shows:\n\(screen)")
    }

    /// Waits until a file the shell writes exists and returns its text.
    func waitForFile(_ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        for _ in 0..<400 {
            if let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8),
               text.hasSuffix("\n") {
                return text
            }
            usleep(50_000)
        }
        throw Failure(description: "\(name) was never written")
    }

    @discardableResult
    private func tmux(_ arguments: [String], startsServer: Bool = false) throws -> String {
        let (status, text) = try Self.run(["tmux", "-u", "-L", socket] + arguments, captureOutput: !startsServer)
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }

    /// Runs a program found on PATH and waits for it. Foundation's `Process` cannot be used here: on Linux it
    /// notices a child's exit through a socket the child inherits, and the tmux server started by
    /// `new-session` keeps that socket open forever. So: posix_spawn, a pipe for the output (or /dev/null
    /// for the server, so it holds nothing of ours), and waitpid.
    static func run(_ arguments: [String], captureOutput: Bool) throws -> (status: Int32, output: String) {
        var pipeFDs: [Int32] = [-1, -1]
        if captureOutput { guard pipe(&pipeFDs) == 0 else { throw Failure(description: "pipe failed") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
            posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
            posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Test threads block signals; a child must not inherit that, or the tmux server and its shell
        // would ignore SIGTERM and SIGHUP (and never end on kill-server).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        if captureOutput { close(pipeFDs[1]) }
        guard spawned == 0 else {
            if captureOutput { close(pipeFDs[0]) }
            throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var output = Data()
        if captureOutput {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(pipeFDs[0], &buffer, buffer.count)
                if count <= 0 { break }
                output.append(contentsOf: buffer[0..<count])
            }
            close(pipeFDs[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }
}
