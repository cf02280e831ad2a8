import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A running child process, started with posix_spawn, with pipes to its standard input, output and error.
///
/// Why not Foundation's `Process`: in Swift 6.3.1 on Linux, `Process.run()` crashes now and then (a
/// segfault in `memcpy`): it copies each `/proc/self/fd` entry as a whole 256-byte `dirent` name, reading
/// past glibc's buffer when an entry sits at its end (swift-corelibs-foundation PR #5472, merged after
/// 6.3.1). A test suite that starts hundreds of processes hit it about one run in five.
public final class SpawnedProcess: @unchecked Sendable {
    /// What the child reads on its standard input.
    public enum Input: Sendable {
        /// /dev/null: reading ends at once.
        case null
        /// A pipe: write with `write(_:)`, end with `closeInput()`.
        case pipe
    }

    public let pid: pid_t
    /// The child's standard output and error, to read from (`readAll`, or `availableData` as it runs).
    public let output: FileHandle
    public let errors: FileHandle
    private let input: FileHandle?
    private let lock = NSLock()
    private var exitStatus: Int32?

    /// Starts `executable` with exactly `environment` (nil: this process's own).
    /// - Parameter mergeErrors: the child's standard error goes to `output` too (as a terminal shows both).
    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                input: Input = .null, mergeErrors: Bool = false) throws {
        var inputFDs: [Int32] = [-1, -1], outputFDs: [Int32] = [-1, -1], errorFDs: [Int32] = [-1, -1]
        guard closeOnExecPipe(&outputFDs) == 0, closeOnExecPipe(&errorFDs) == 0, input == .null || closeOnExecPipe(&inputFDs) == 0 else {
            for fd in inputFDs + outputFDs + errorFDs where fd >= 0 { close(fd) }
            throw ChildProcess.Failed(command: executable.path, status: -1, errors: "pipe failed: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input == .pipe {
            posix_spawn_file_actions_adddup2(&actions, inputFDs[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergeErrors ? outputFDs[1] : errorFDs[1], 2)
        for fd in inputFDs + outputFDs + errorFDs where fd >= 0 { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = SpawnAttributes.withSignalsReset()
        defer { posix_spawnattr_destroy(&attributes) }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = (environment ?? ProcessInfo.processInfo.environment)
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = spawning.withLock { posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp) }
        for fd in [inputFDs[0], outputFDs[1], errorFDs[1]] where fd >= 0 { close(fd) }
        guard spawned == 0 else {
            for fd in [inputFDs[1], outputFDs[0], errorFDs[0]] where fd >= 0 { close(fd) }
            throw ChildProcess.Failed(command: executable.path, status: -1, errors: "cannot start: \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        self.input = input == .pipe ? FileHandle(fileDescriptor: inputFDs[1], closeOnDealloc: true) : nil
        self.output = FileHandle(fileDescriptor: outputFDs[0], closeOnDealloc: true)
        self.errors = FileHandle(fileDescriptor: errorFDs[0], closeOnDealloc: true)
    }

    /// Writes to the child's standard input (started with `input: .pipe`).
    public func write(_ text: String) {
        input?.write(Data(text.utf8))
    }

    /// Ends the child's standard input.
    public func closeInput() {
        try? input?.close()
    }

    /// Whether the child is still running (reaps it when it has ended).
    public var isRunning: Bool {
        lock.withLock {
            guard exitStatus == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            exitStatus = Self.shellStatus(status)
            return false
        }
    }

    /// Sends `signal` (SIGTERM by default) when the child is still running.
    public func terminate(_ signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the child to end; its exit status, or 128 plus the signal's number as a shell reports it.
    @discardableResult
    public func wait() -> Int32 {
        lock.withLock {
            if let exitStatus { return exitStatus }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let result = Self.shellStatus(status)
            exitStatus = result
            return result
        }
    }

    /// Runs to the end with `stdin` written to its input, reading both outputs as they come (so neither
    /// pipe can fill and stall the child).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                           stdin: String? = nil) throws -> ChildProcess.Finished {
        let child = try SpawnedProcess(executable, arguments, environment: environment, input: stdin == nil ? .null : .pipe)
        if let stdin {
            child.write(stdin)
            child.closeInput()
        }
        let (output, errors) = ChildProcess.readToEnd(child.output.fileDescriptor, child.errors.fileDescriptor)
        let status = child.wait()
        return ChildProcess.Finished(status: status, output: String(decoding: output, as: UTF8.self),
                                     errors: String(decoding: errors, as: UTF8.self))
    }

    private static func shellStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// posix_spawn's attributes for a child of a test process.
enum SpawnAttributes {
    /// Test threads block signals; a child must not inherit that, or it would ignore SIGTERM and SIGHUP (a
    /// tmux server and its shell would never end on kill-server). Destroy the result with
    /// `posix_spawnattr_destroy`.
    static func withSignalsReset() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }
}
