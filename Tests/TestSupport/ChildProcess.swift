import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end and collects what it printed.
///
/// Foundation's `Process` is not used: on Linux it notices a child's exit through a socket the child
/// inherits, and a tmux server started by `new-session` keeps that socket open for ever. So: posix_spawn,
/// pipes for the output (or /dev/null, so that a server left running holds nothing of ours), and waitpid.
public enum ChildProcess {
    /// How a program ended and what it wrote.
    public struct Finished: Sendable {
        /// The exit status, or 128 plus the signal's number when a signal ended it (as a shell reports it).
        public let status: Int32
        public let output: String
        public let errors: String
    }

    /// A program that had to succeed and did not.
    public struct Failed: Error, CustomStringConvertible {
        public let command: String
        public let status: Int32
        public let errors: String
        public var description: String { "\(command) exited \(status): \(errors)" }
    }

    /// Runs `executable` (looked up on PATH) with this process's environment plus `environment`, and
    /// waits for it. Throws only when it cannot start; a non-zero exit is in the result.
    /// Without `capturingOutput` its standard output and error go to /dev/null and come back empty.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           capturingOutput: Bool = true) throws -> Finished {
        let command = ([executable] + arguments).joined(separator: " ")
        var outputFDs: [Int32] = [-1, -1], errorFDs: [Int32] = [-1, -1]
        if capturingOutput {
            guard closeOnExecPipe(&outputFDs) == 0 else { throw Failed(command: command, status: -1, errors: "pipe failed") }
            guard closeOnExecPipe(&errorFDs) == 0 else {
                outputFDs.forEach { close($0) }
                throw Failed(command: command, status: -1, errors: "pipe failed")
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturingOutput {
            posix_spawn_file_actions_adddup2(&actions, outputFDs[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errorFDs[1], 2)
            for fd in outputFDs + errorFDs { posix_spawn_file_actions_addclose(&actions, fd) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var attributes = SpawnAttributes.withSignalsReset()
        defer { posix_spawnattr_destroy(&attributes) }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        let envp: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = spawning.withLock { posix_spawnp(&pid, executable, &actions, &attributes, argv, envp) }
        if capturingOutput { close(outputFDs[1]); close(errorFDs[1]) }
        guard spawned == 0 else {
            if capturingOutput { close(outputFDs[0]); close(errorFDs[0]) }
            throw Failed(command: command, status: -1, errors: "cannot start: \(String(cString: strerror(spawned)))")
        }
        let (output, errors) = capturingOutput ? readToEnd(outputFDs[0], errorFDs[0]) : (Data(), Data())
        if capturingOutput { close(outputFDs[0]); close(errorFDs[0]) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Finished(status: exitStatus, output: String(decoding: output, as: UTF8.self),
                        errors: String(decoding: errors, as: UTF8.self))
    }

    /// Runs a program that must succeed and returns its standard output; throws `Failed` when it exits non-zero.
    @discardableResult
    public static func output(of executable: String, _ arguments: [String],
                              environment: [String: String] = [:]) throws -> String {
        let finished = try run(executable, arguments, environment: environment)
        guard finished.status == 0 else {
            throw Failed(command: ([executable] + arguments).joined(separator: " "), status: finished.status,
                         errors: finished.errors)
        }
        return finished.output
    }

    /// Reads both pipes until each is at its end, whichever has data first, so that neither can fill up
    /// and stall a child that is writing to the other.
    static func readToEnd(_ outputFD: Int32, _ errorFD: Int32) -> (output: Data, errors: Data) {
        var collected = [Data(), Data()]
        // poll passes over negative descriptors: a pipe at its end is set to -1.
        var watched = [pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errorFD, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while watched.contains(where: { $0.fd >= 0 }) {
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for index in watched.indices where watched[index].fd >= 0 && watched[index].revents != 0 {
                let count = read(watched[index].fd, &buffer, buffer.count)
                if count > 0 {
                    collected[index].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    watched[index].fd = -1
                }
            }
        }
        return (collected[0], collected[1])
    }
}
