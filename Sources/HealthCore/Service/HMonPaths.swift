import Foundation
import HealthModel

/// Where hmon keeps its files, following the XDG base directory spec.
///
/// Data: `$XDG_DATA_HOME/hmon/` (default `~/.local/share/hmon/`): `hmon.sqlite`, `demo.sqlite`.
/// Config: `$XDG_CONFIG_HOME/hmon/` (default `~/.config/hmon/`): `config.toml`, `themes/`, `session.json`.
public struct HMonPaths: Sendable, Equatable {
    public var dataDirectory: URL
    public var configDirectory: URL

    public init(dataDirectory: URL, configDirectory: URL) {
        self.dataDirectory = dataDirectory
        self.configDirectory = configDirectory
    }

    /// The paths for an environment (pass `ProcessInfo.processInfo.environment`).
    public init(environment env: [String: String]) {
        let home = URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory(), isDirectory: true)
        func base(_ key: String, _ fallback: String) -> URL {
            if let v = env[key], v.hasPrefix("/") { return URL(fileURLWithPath: v, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        self.init(dataDirectory: base("XDG_DATA_HOME", ".local/share").appendingPathComponent("hmon", isDirectory: true),
                  configDirectory: base("XDG_CONFIG_HOME", ".config").appendingPathComponent("hmon", isDirectory: true))
    }

    public var defaultDatabase: URL { dataDirectory.appendingPathComponent("hmon.sqlite") }
    public var demoDatabase: URL { dataDirectory.appendingPathComponent("demo.sqlite") }
    public var sessionFile: URL { configDirectory.appendingPathComponent("session.json") }
    public var configFile: URL { configDirectory.appendingPathComponent("config.toml") }
    public var themesDirectory: URL { configDirectory.appendingPathComponent("themes", isDirectory: true) }
}
