import CNcurses
import Foundation
import Synchronization

/// A real pseudo-terminal for tests: ncurses runs on its terminal side (`terminalFD`) as on any tty;
/// a background thread reads and discards what ncurses writes, so drawing never blocks on a full buffer.
final class PseudoTerminal {
    let controlFD: Int32
    let terminalFD: Int32
    private let drained = DispatchSemaphore(value: 0)
    private let counted = ByteCount()

    /// Bytes the program has written to the terminal so far.
    var bytesReceived: Int { counted.value }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(rows: Int, columns: Int) throws {
        var control: Int32 = -1
        var name = [CChar](repeating: 0, count: 128)
        guard hm_open_pty(&control, &name, Int32(name.count), Int32(rows), Int32(columns)) == 0 else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let terminal = open(path, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else {
            Foundation.close(control)
            throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        controlFD = control
        terminalFD = terminal
        let fd = control, done = drained, counted = counted
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count <= 0 { break }
                counted.add(count)
            }
            done.signal()
        }.start()
    }

    /// Types `text` as if at the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(controlFD, $0.baseAddress, $0.count) }
    }

    /// Changes the window size, as a terminal emulator does when its window is resized.
    func resize(rows: Int, columns: Int) {
        _ = hm_set_winsize(controlFD, Int32(rows), Int32(columns))
    }

    /// Closes the terminal side (after ncurses let go of it), waits for the reader to see the end, closes the rest.
    func shutDown() {
        Foundation.close(terminalFD)
        _ = drained.wait(timeout: .now() + 5)
        Foundation.close(controlFD)
    }
}

/// A count shared with the reader thread.
final class ByteCount: Sendable {
    private let total = Mutex(0)
    func add(_ n: Int) { total.withLock { $0 += n } }
    var value: Int { total.withLock { $0 } }
}
