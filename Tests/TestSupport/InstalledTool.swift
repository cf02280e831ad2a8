import Foundation

/// A program installed on this machine, found on PATH the way a shell finds it, so that tests do not
/// assume one distribution's folder (`/usr/bin` here, `/opt/homebrew/bin` there).
public enum InstalledTool {
    /// The first executable `name` in the folders of PATH, or nil when none is installed.
    public static func path(of name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
