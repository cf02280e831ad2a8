import Foundation
import HealthCore

/// Draws the import's progress line on standard error, in place, a few times a second.
/// Only used when standard error is a terminal; otherwise it stays silent.
final class ImportProgressReporter {
    let enabled: Bool
    private let file: String
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(file: String, enabled: Bool) {
        self.file = file
        self.enabled = enabled
    }

    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.25 else { return }
        lastDraw = now
        var line = ImportReportText.progressLine(file: file, progress, elapsed: now.timeIntervalSince(started))
        // A line longer than the terminal would wrap, and "\r" would no longer bring us back to its start.
        let width = Self.terminalWidth()
        if line.count >= width { line = String(line.prefix(max(0, width - 1))) }
        write("\r\u{1B}[K" + line)
        drawn = true
    }

    /// Erases the progress line.
    func clear() {
        guard drawn else { return }
        write("\r\u{1B}[K")
        drawn = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
