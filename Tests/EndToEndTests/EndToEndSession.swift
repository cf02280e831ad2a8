import Foundation
import TestSupport

/// The built `hmon` next to the sources: `.build/debug/hmon` of this package.
let builtHmon: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent(".build/debug/hmon")

extension TmuxSession {
    /// A 100×30 terminal whose shell, and the commands run outside it, keep their files in the session's
    /// folder (HOME and the XDG folders): nothing of the user's is read or written.
    static func endToEnd() throws -> TmuxSession {
        try TmuxSession(width: 100, height: 30, prompt: "e2e$ ") { folder in
            [
                "HOME": folder.path,
                "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                "TERM": "xterm-256color",
            ]
        }
    }
}
