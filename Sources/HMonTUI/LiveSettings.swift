import Foundation
import Terminal

/// config.toml while the dashboard runs: read again each second, and its settings handed on when its bytes
/// changed, so an edit applies within a second without a restart. Which settings a flag or variable chose
/// instead (`--theme`, `HMON_THEME`, `--refresh`, `--no-mouse`) is kept here, and those stay as chosen.
public struct LiveSettings: Sendable {
    public var file: URL
    public var catalog: ThemeCatalog
    public var themeFromFile: Bool
    public var refreshFromFile: Bool
    public var mouseFromFile: Bool
    /// The bytes read last (nil: no file), to tell an edit from the same file read again.
    private var lastRead: Data?

    public init(file: URL, catalog: ThemeCatalog, themeFromFile: Bool, refreshFromFile: Bool, mouseFromFile: Bool) {
        self.file = file
        self.catalog = catalog
        self.themeFromFile = themeFromFile
        self.refreshFromFile = refreshFromFile
        self.mouseFromFile = mouseFromFile
        lastRead = try? Data(contentsOf: file)
    }

    /// The file's settings when it changed since it was read last (its removal is the defaults); nil when it
    /// did not change.
    mutating func edit() -> Result<DashboardConfig, DashboardConfig.Problem>? {
        let now = try? Data(contentsOf: file)
        guard now != lastRead else { return nil }
        lastRead = now
        do {
            return .success(try DashboardConfig.load(from: file))
        } catch {
            return .failure(error)
        }
    }
}
