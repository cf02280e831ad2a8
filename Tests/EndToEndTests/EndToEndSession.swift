import Foundation
import TestSupport

/// The `hmon` this build made, next to the test bundle (whatever the scratch path). Throws, and so fails
/// the test with the folder it looked in, when it is missing: `swift test` always builds it, so a missing
/// binary is a broken build or a broken lookup, and skipping would hide either.
func builtHmon() throws -> URL {
    try BuiltHMon.url()
}

extension TmuxSession {
    /// A 100×30 terminal whose shell, and the commands run outside it, keep their files in the session's
    /// folder (HOME and the XDG folders): nothing of the user's is read or written.
    static func endToEnd() async throws -> TmuxSession {
        try await TmuxSession(width: 100, height: 30, prompt: "e2e$ ") { folder in
            [
                "HOME": folder.path,
                "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                "TERM": "xterm-256color",
                // A server beside a full test run checks passwords slowly; no walk here is about its pace.
                "HMON_SERVER_WAIT": "120",
            ]
        }
    }
}

extension TmuxSession {
    /// What a dashboard started with `HMON_EVENT_TRACE=events` (relative to the session's folder) noted:
    /// one line per event its loop handled, after that event's frame was drawn ("tick idle", "key busy").
    func traceLines() -> [String] {
        let file = folder.appendingPathComponent("events")
        return ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits until the dashboard's loop has handled `count` more ticks than `after` lines of its trace show
    /// and then has nothing loading (a tick may look at the store's change token): proof that time went by on
    /// its clock and that what it looked at is drawn, without a sleep here.
    func waitForTicks(_ count: Int, after lines: Int) async throws {
        let ticked = await Waiting.until {
            let since = traceLines().dropFirst(lines)
            return since.filter { $0.hasPrefix("tick ") }.count >= count && since.last?.hasSuffix(" idle") == true
        }
        if !ticked { throw Timeout(description: "the dashboard never ticked \(count) times idle; it noted \(traceLines().suffix(10))") }
    }
}
