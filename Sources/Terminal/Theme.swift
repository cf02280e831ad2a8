/// A named set of colours, one per `Role`. Views speak in roles; the `Palette` maps a theme down to what
/// the terminal can show.
///
/// Theme files (`Themes/*.theme`) are lines of `role = "#RRGGBB"`; btop's `theme[role]="#RRGGBB"` is also
/// accepted. `#` starts a comment (a whole line, or after the value). Role names are the `Role` cases,
/// compared without case, `_` or `-` (`selectionText`, `selection_text`). Roles a file leaves out come from
/// the built-in default theme.
public struct Theme: Sendable, Equatable {
    public var name: String
    /// Every role has a colour.
    public private(set) var colors: [Role: RGB]

    public init(name: String, colors: [Role: RGB], fallback: Theme? = .builtInDefault) {
        self.name = name
        var merged = fallback?.colors ?? [:]
        merged.merge(colors) { _, new in new }
        self.colors = merged
    }

    public subscript(role: Role) -> RGB {
        colors[role] ?? Theme.builtInDefault.colors[role] ?? RGB(255, 255, 255)
    }

    /// The default dark theme, compiled in so hmon works without its `Themes/` folder.
    /// `Themes/default.theme` holds the same colours (a test keeps them equal).
    public static let builtInDefault = Theme(name: "default", colors: [
        .background: RGB(0x1d, 0x20, 0x26),
        .text: RGB(0xd7, 0xda, 0xe0),
        .dim: RGB(0x7f, 0x84, 0x8e),
        .title: RGB(0x61, 0xaf, 0xef),
        .border: RGB(0x4b, 0x52, 0x63),
        .selection: RGB(0x3e, 0x44, 0x52),
        .selectionText: RGB(0xff, 0xff, 0xff),
        .good: RGB(0x98, 0xc3, 0x79),
        .warning: RGB(0xe5, 0xc0, 0x7b),
        .bad: RGB(0xe0, 0x6c, 0x75),
        .accent: RGB(0xc6, 0x78, 0xdd),
        .header: RGB(0xe5, 0xc0, 0x7b),
        .statusBar: RGB(0x28, 0x2c, 0x34),
        .statusText: RGB(0xab, 0xb2, 0xbf),
        .input: RGB(0x56, 0xb6, 0xc2),
        .graph: RGB(0x61, 0xaf, 0xef),
    ], fallback: nil)

    /// Parses theme file text. `file` names the source in errors ("Themes/nord.theme:7: …").
    public static func parse(_ text: String, name: String, file: String,
                             fallback: Theme = .builtInDefault) throws(ThemeError) -> Theme {
        var colors: [Role: RGB] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let (role, color) = try parseLine(line, file: file, line: index + 1)
            colors[role] = color
        }
        return Theme(name: name, colors: colors, fallback: fallback)
    }

    private static func parseLine(_ line: Substring, file: String, line number: Int) throws(ThemeError) -> (Role, RGB) {
        func fail(_ message: String) -> ThemeError { ThemeError(file: file, line: number, message: message) }
        guard let equals = line.firstIndex(of: "=") else {
            throw fail("expected role = \"#RRGGBB\", got \(line)")
        }
        var key = line[..<equals].trimmingWhitespace()
        if key.hasPrefix("theme[") && key.hasSuffix("]") { key = key.dropFirst(6).dropLast() }
        guard !key.isEmpty else { throw fail("expected role = \"#RRGGBB\", got \(line)") }
        guard let role = Role(themeKey: key) else {
            throw fail("unknown role '\(key)'; valid roles: \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
        }

        var value = line[line.index(after: equals)...].trimmingWhitespace()
        if let quote = value.first, quote == "\"" || quote == "'" {
            let body = value.dropFirst()
            guard let close = body.firstIndex(of: quote) else {
                throw fail("missing closing \(quote) in the colour for '\(key)'")
            }
            let rest = body[body.index(after: close)...].trimmingWhitespace()
            guard rest.isEmpty || rest.hasPrefix("#") else {
                throw fail("unexpected text after the colour for '\(key)': \(rest)")
            }
            value = body[..<close]
        } else if let space = value.firstIndex(where: { $0 == " " || $0 == "\t" }) {
            let rest = value[space...].trimmingWhitespace()
            guard rest.hasPrefix("#") else { throw fail("unexpected text after the colour for '\(key)': \(rest)") }
            value = value[..<space]
        }
        guard let color = RGB(hex: String(value)) else {
            throw fail("colour for '\(key)' must be \"#RRGGBB\", got \"\(value)\"")
        }
        return (role, color)
    }
}

/// A theme file that cannot be used, with where and why: `Themes/nord.theme:7: unknown role 'bg'; …`.
public struct ThemeError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// 1-based; nil when the problem is the file as a whole (missing, unreadable).
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file; self.line = line; self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return file.isEmpty ? message : "\(file): \(message)"
    }
}

extension Role {
    /// Matches a theme file key, ignoring case, `_` and `-`.
    init?(themeKey key: Substring) {
        func normal(_ s: some StringProtocol) -> String { s.lowercased().filter { $0 != "_" && $0 != "-" } }
        let wanted = normal(key)
        guard let role = Role.allCases.first(where: { normal($0.rawValue) == wanted }) else { return nil }
        self = role
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        let end = lastIndex(where: { !isSpace($0) })!
        return self[start...end]
    }
}
