import Foundation
import HealthCore
import HealthModel
import Synchronization

/// Draws the import's progress line on standard error, in place, a few times a second.
/// Only used when standard error is a terminal; otherwise it stays silent.
///
/// `update` is called on the importer's reading thread and `clear` on the command's, so the little
/// state there is lives behind a mutex.
public final class ImportProgressReporter: Sendable {
    public let enabled: Bool
    private let file: String
    private let started = Date()
    private let state = Mutex(State())

    private struct State {
        var lastDraw = Date.distantPast
        var drawn = false
    }

    public init(file: String, enabled: Bool) {
        // A file name is outside text: the progress line must not carry its control characters.
        self.file = TerminalText.escaped(file)
        self.enabled = enabled
    }

    public func update(_ progress: ImportProgress) {
        guard enabled else { return }
        state.withLock { state in
            let now = Date()
            guard now.timeIntervalSince(state.lastDraw) >= 0.25 else { return }
            state.lastDraw = now
            var line = ImportReportText.progressLine(file: file, progress, elapsed: now.timeIntervalSince(started))
            // A line longer than the terminal would wrap, and "\r" would no longer bring us back to its start.
            let width = Self.terminalWidth()
            if line.count >= width { line = String(line.prefix(max(0, width - 1))) }
            Self.write("\r\u{1B}[K" + line)
            state.drawn = true
        }
    }

    /// Erases the progress line.
    public func clear() {
        state.withLock { state in
            guard state.drawn else { return }
            Self.write("\r\u{1B}[K")
            state.drawn = false
        }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
