import Foundation
import TOMLKit

/// The dashboard's settings from `$XDG_CONFIG_HOME/hmon/config.toml`:
///
/// ```toml
/// theme = "nord"     # a theme name or a path to a .theme file
/// refresh = 30       # seconds between polls of a server
/// mouse = false      # leave the mouse to the terminal (selection, scrollback), as --no-mouse does
/// ```
///
/// [keys]             # an action's keys instead of its defaults (`hmon keys --list` names the actions)
/// energy = "E"
/// quit = ["x", "q"]
/// ```
/// Environment (`HMON_THEME`) and flags override the file; a missing file means the defaults.
public struct DashboardConfig: Sendable, Equatable {
    public var theme: String?
    public var refreshSeconds: Double?
    /// Whether clicks and the wheel go to hmon; nil means the default (they do).
    public var mouse: Bool?
    /// The `[keys]` table's entries, in the file's order, each with its line.
    public var keys: [KeySetting] = []
    /// What in `[keys]` could not be read (a value that is no key name or list of them), each with its line:
    /// said, and that action keeps its default keys; the rest of the file still applies.
    public var keyProblems: [String] = []

    public init(theme: String? = nil, refreshSeconds: Double? = nil, mouse: Bool? = nil) {
        self.theme = theme
        self.refreshSeconds = refreshSeconds
        self.mouse = mouse
    }

    /// A config file that cannot be used, with the file and the line.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Reads the file when it exists; a missing file means the defaults. A file that is there but cannot be
    /// read (permissions, a folder, not UTF-8) is a problem to show, not a reason to quietly use the defaults.
    public static func load(from file: URL) throws(Problem) -> DashboardConfig {
        guard FileManager.default.fileExists(atPath: file.path) else { return DashboardConfig() }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw Problem(description: "\(file.path): cannot be read (\(reason(error))): fix its permissions or remove it")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Problem(description: "\(file.path): is not UTF-8 text: save it as UTF-8 or remove it")
        }
        return try parse(text, file: file.path)
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain, let text = strerror(Int32(code)) {
            return String(cString: text).lowercased()
        }
        return (error as NSError).localizedDescription
    }

    public static func parse(_ text: String, file: String) throws(Problem) -> DashboardConfig {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Problem(description: "\(file):\(error.source.begin.line): \(error.description): fix or remove the line")
        } catch {
            throw Problem(description: "\(file): \(error): fix the file or remove it")
        }
        var config = DashboardConfig()
        if let value = table["theme"] {
            guard let name = value.string, !name.isEmpty else {
                throw Problem(description: "\(file): theme must be a name in quotes, like theme = \"nord\"")
            }
            config.theme = name
        }
        if let value = table["refresh"] {
            guard let seconds = value.double ?? value.int.map(Double.init), seconds >= 1 else {
                throw Problem(description: "\(file): refresh must be a number of seconds ≥ 1, like refresh = 30")
            }
            config.refreshSeconds = seconds
        }
        if let value = table["mouse"] {
            guard let on = value.bool else {
                throw Problem(description: "\(file): mouse must be true or false, like mouse = false")
            }
            config.mouse = on
        }
        if let value = table["keys"] {
            guard let keys = value.table else {
                throw Problem(description: "\(file): keys must be a table: a [keys] line, then lines like energy = \"E\"")
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for action in keys.keys.sorted(by: { line(of: $0, in: lines) < line(of: $1, in: lines) }) {
                // The file's name, not its path: the status bar that says it has one line.
                let at = "\(URL(fileURLWithPath: file).lastPathComponent):\(line(of: action, in: lines))"
                let names = keys[action]?.string.map { [$0] } ?? keys[action]?.array?.compactMap(\.string)
                guard let names, !names.isEmpty, names.count == keys[action]?.array?.count ?? 1 else {
                    config.keyProblems.append("\(at): \(action) must be a key in quotes or a list of them, like \(action) = [\"x\", \"q\"]")
                    continue
                }
                config.keys.append(KeySetting(action: action, keys: names, place: at))
            }
        }
        return config
    }

    /// The line (from 1) of `name = …` under `[keys]`; the table's own line when it cannot be found.
    private static func line(of name: String, in lines: [String]) -> Int {
        let header = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[keys]") } ?? 0
        for index in (header + 1)..<max(header + 1, lines.count) {
            let text = lines[index].trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("[") { break }
            let key = text.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if key == name || key == "\"\(name)\"" { return index + 1 }
        }
        return header + 1
    }
}

/// One `[keys]` entry: an action's name and the keys it gets, and where it was written (`config.toml:12`).
public struct KeySetting: Sendable, Equatable {
    public var action: String
    public var keys: [String]
    public var place: String
}
