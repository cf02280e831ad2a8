import Foundation
import TestSupport

/// The `hmon` this build made, next to the test bundle (whatever the scratch path). Throws, and so fails
/// the test with the folder it looked in, when it is missing: `swift test` always builds it, so a missing
/// binary is a broken build or a broken lookup, and skipping would hide either.
func builtHmon() throws -> URL {
    try BuiltProducts.executable(named: "hmon")
}

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
