import Foundation

/// The event loop's trace: one line per event handled, after its frame was drawn ("tick idle",
/// "loaded busy"), appended to a file named by `HMON_EVENT_TRACE`. Tests that drive the real binary in a
/// terminal wait on it (the first frame's loads are in; two ticks went by) instead of sleeping and hoping.
/// It holds event names only, never what a screen shows.
final class EventTrace {
    private let handle: FileHandle

    /// Nil when the file cannot be made or opened: a trace is never worth failing the dashboard for.
    init?(appendingTo file: URL) {
        guard FileManager.default.fileExists(atPath: file.path)
                || FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = try? FileHandle(forWritingTo: file) else { return nil }
        _ = try? handle.seekToEnd()
        self.handle = handle
    }

    deinit { try? handle.close() }

    func note(_ event: String, busy: Bool) {
        try? handle.write(contentsOf: Data("\(event) \(busy ? "busy" : "idle")\n".utf8))
    }
}
