import Foundation

/// Finds themes by name or path. User themes (`$XDG_CONFIG_HOME/hmon/themes/NAME.theme`) shadow built-in
/// ones of the same name; built-in themes come from a `Themes/` folder next to the binary, from
/// `share/hmon/themes` beside its `bin/`, or from the source tree (so `swift run` works); `default` always
/// exists because it is compiled in.
public struct ThemeCatalog: Sendable {
    /// Where the user's themes live (it need not exist).
    public var userDirectory: String?
    /// Folders of built-in themes, searched in order.
    public var builtInDirectories: [String]

    public init(userDirectory: String?, builtInDirectories: [String]) {
        self.userDirectory = userDirectory
        self.builtInDirectories = builtInDirectories
    }

    /// The catalog for this process: user folder from `XDG_CONFIG_HOME` (or `~/.config`), built-in folders
    /// that exist near the executable or in the source tree.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ThemeCatalog {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.config" }
        return ThemeCatalog(userDirectory: configHome.map { $0 + "/hmon/themes" },
                            builtInDirectories: builtInCandidates().filter(isDirectory))
    }

    /// The theme name to use: `--theme` wins, then `HMON_THEME`, then `theme =` from the config file, then "default".
    public static func chosenTheme(flag: String?, environment: [String: String], configured: String?) -> String {
        for candidate in [flag, environment["HMON_THEME"], configured] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return "default"
    }

    /// Every theme name available, "default" first, the rest alphabetically (the order `T` cycles through).
    public var names: [String] {
        var found: Set<String> = ["default"]
        for directory in ([userDirectory].compactMap { $0 } + builtInDirectories) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for file in files where file.hasSuffix(".theme") {
                found.insert(String(file.dropLast(".theme".count)))
            }
        }
        return ["default"] + found.subtracting(["default"]).sorted()
    }

    /// The file a theme name resolves to, user folder first; nil when no file has that name.
    public func path(forName name: String) -> String? {
        for directory in [userDirectory].compactMap({ $0 }) + builtInDirectories {
            let path = directory + "/" + name + ".theme"
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Loads a theme by name (`nord`) or by path (anything with a `/` or ending in `.theme`).
    public func theme(named nameOrPath: String) throws(ThemeError) -> Theme {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".theme") {
            let name = URL(fileURLWithPath: nameOrPath).deletingPathExtension().lastPathComponent
            return try Self.load(path: nameOrPath, name: name)
        }
        if let path = path(forName: nameOrPath) { return try Self.load(path: path, name: nameOrPath) }
        if nameOrPath == "default" { return .builtInDefault }
        throw ThemeError(file: "", message: "no theme named '\(nameOrPath)'; available: \(names.joined(separator: ", "))")
    }

    /// Reads and parses one theme file.
    public static func load(path: String, name: String) throws(ThemeError) -> Theme {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ThemeError(file: path, message: "cannot read the theme file (does it exist?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ThemeError(file: path, message: "the theme file is not UTF-8 text")
        }
        return try Theme.parse(text, name: name, file: path)
    }

    private static func builtInCandidates() -> [String] {
        var candidates: [String] = []
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let binDirectory = executable.deletingLastPathComponent()
        candidates.append(binDirectory.appendingPathComponent("Themes").path)
        candidates.append(binDirectory.deletingLastPathComponent().appendingPathComponent("share/hmon/themes").path)
        candidates.append(sourceThemesDirectory)
        return candidates
    }

    /// `Themes/` in the source tree this file was compiled from: the last resort, for `swift run` and tests.
    public static let sourceThemesDirectory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes").path

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
