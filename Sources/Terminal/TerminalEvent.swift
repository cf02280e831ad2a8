import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Something the event loop should react to. Keys themselves are read on the main actor after `.keyReady`
/// (`Screen.readKeys()`), because only the main actor may call ncurses.
public enum TerminalEvent: Hashable, Sendable {
    /// Input is waiting: call `Screen.readKeys()`.
    case keyReady
    /// The terminal changed size: call `Screen.updateSize()` and redraw.
    case resize
    /// The interval given to `Screen.events(tick:)` passed.
    case tick
}

/// The background thread that waits for input. It only `poll()`s file descriptors and never calls ncurses:
/// standard input (→ `.keyReady`), the wake pipe (SIGWINCH → `.resize`; "q" → stop), and after each
/// `.keyReady` it waits for the main actor's "drained" acknowledgement on the ack pipe, so one burst of
/// typing becomes one event rather than a flood.
final class InputWatcher: Sendable {
    let inputFD: Int32
    let wakeRead: Int32, wakeWrite: Int32
    let ackRead: Int32, ackWrite: Int32
    private let finished = DispatchSemaphore(value: 0)

    init(inputFD: Int32) {
        self.inputFD = inputFD
        var wake: [Int32] = [-1, -1], ack: [Int32] = [-1, -1]
        _ = pipe(&wake)
        _ = pipe(&ack)
        for fd in wake + ack {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = wake[0]; wakeWrite = wake[1]
        ackRead = ack[0]; ackWrite = ack[1]
    }

    /// Starts the thread feeding `continuation`.
    func start(_ continuation: AsyncStream<TerminalEvent>.Continuation) {
        let thread = Thread { [self] in
            run(continuation)
            finished.signal()
        }
        thread.name = "hmon input"
        thread.start()
    }

    /// Tells the main actor's drain happened (called by `Screen.readKeys()`).
    func acknowledge() {
        var byte = UInt8(ascii: "a")
        _ = write(ackWrite, &byte, 1)
    }

    /// Asks the thread to end and waits briefly for it, then closes the pipes.
    func stop(threadStarted: Bool) {
        var byte = UInt8(ascii: "q")
        _ = write(wakeWrite, &byte, 1)
        if threadStarted { _ = finished.wait(timeout: .now() + 1) }
        for fd in [wakeRead, wakeWrite, ackRead, ackWrite] { close(fd) }
    }

    /// Whether keys can arrive on `fd`: a terminal, a pipe or a socket. A file or /dev/null (as tests and
    /// snapshots may give) always polls as readable and would wake the loop forever, so it is not watched.
    private static func canDeliverKeys(_ fd: Int32) -> Bool {
        if isatty(fd) != 0 { return true }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFSOCK
    }

    private func run(_ continuation: AsyncStream<TerminalEvent>.Continuation) {
        var awaitingAck = false
        let watchInput = Self.canDeliverKeys(inputFD)
        while true {
            var fds = [
                pollfd(fd: awaitingAck ? ackRead : (watchInput ? inputFD : -1), events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                continuation.finish()
                return
            }
            if fds[1].revents != 0 {
                for byte in drain(wakeRead) {
                    if byte == UInt8(ascii: "q") { continuation.finish(); return }
                }
                continuation.yield(.resize)
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                if awaitingAck {
                    _ = drain(ackRead)
                    awaitingAck = false
                } else {
                    continuation.yield(.keyReady)
                    awaitingAck = true
                }
            } else if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The terminal went away (window closed): nothing more will come.
                continuation.finish()
                return
            }
        }
    }

    private func drain(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return bytes }
            bytes += buffer.prefix(count)
        }
    }
}
