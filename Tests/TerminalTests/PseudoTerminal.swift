import CNcurses
import Foundation
import Synchronization
import TestSupport

/// A real pseudo-terminal for tests: ncurses runs on its terminal side (`terminalFD`) as on any tty;
/// a background thread reads and discards what ncurses writes, so drawing never blocks on a full buffer.
final class PseudoTerminal {
    let controlFD: Int32
    let terminalFD: Int32
    private let drained = DispatchSemaphore(value: 0)
    private let counted = ByteCount()

    /// Bytes the program has written to the terminal so far (marks left out).
    var bytesReceived: Int { counted.value - counted.marks }

    /// Bytes the program has written to the terminal until now, once all of them have reached the reader: a
    /// mark (the byte US, which no terminal program sends) is written after them and waited for, so nothing
    /// still on its way through the pseudo-terminal is missed, and no sleep is needed.
    func bytesWrittenUntilNow() throws -> Int {
        let seen = counted.marks
        var mark: UInt8 = Self.mark
        _ = write(terminalFD, &mark, 1)
        guard Waiting.blockingUntil(within: .seconds(10), { counted.marks > seen }) else {
            throw Failure(description: "the mark written to the terminal never reached its other side")
        }
        return bytesReceived
    }

    fileprivate static let mark: UInt8 = 0x1F

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
                counted.add(buffer[0..<count])
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

/// A count shared with the reader thread: all bytes, and the marks among them.
final class ByteCount: Sendable {
    private let total = Mutex((bytes: 0, marks: 0))
    func add(_ bytes: ArraySlice<UInt8>) {
        let marks = bytes.count { $0 == PseudoTerminal.mark }
        total.withLock { $0.bytes += bytes.count; $0.marks += marks }
    }
    var value: Int { total.withLock { $0.bytes } }
    var marks: Int { total.withLock { $0.marks } }
}
