import Foundation

/// The `hmon` this build made, run as a person runs it: the one runner every command-line test goes
/// through (each suite only adds its own store and environment). A process ends here on a thread of its
/// own, so waiting never holds one of the task pool's few threads, which servers in this process need.
public enum BuiltHMon {
    /// Next to the test bundle; a missing one throws `BuiltProducts.Missing`, naming where it looked.
    public static func url() throws -> URL {
        try BuiltProducts.executable(named: "hmon")
    }

    /// Runs hmon to its end with `stdin` on its input (nil: /dev/null) and exactly `environment` (nil: this
    /// process's), reading both outputs as they come.
    public static func run(_ arguments: [String], stdin: String? = nil,
                           environment: [String: String]? = nil) async throws -> ChildProcess.Finished {
        try await SpawnedProcess.running(url(), arguments, environment: environment, stdin: stdin)
    }
}
