import Foundation

/// A temporary home for runs of the built `hmon`: a folder of its own with the config and data folders
/// inside it, and an environment that points there and carries no `HMON_DB` or `HMON_SERVER` of the
/// caller's, so a test never reads or writes the real ones, and that waits for a server's answers longer. `remove()` when done (in a `defer`).
struct CommandHome {
    let folder: URL
    let environment: [String: String]

    init(_ name: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        environment["HMON_DB"] = nil
        environment["HMON_SERVER"] = nil
        // A server in the test process shares two cores with hundreds of tests: its answers wait for
        // them, and no test here is about how long they take.
        environment["HMON_SERVER_WAIT"] = "120"
        self.environment = environment
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
