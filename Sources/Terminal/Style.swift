/// The named colour roles a theme assigns. Views speak only in roles; the theme and the terminal's
/// colour depth decide the actual colours.
public enum Role: String, CaseIterable, Sendable, Hashable {
    case background, text, dim, title, border, selection, selectionText
    case good, warning, bad, accent, header, statusBar, statusText, input, graph
}

/// How a run of text looks: a role, plus attributes that also carry meaning in monochrome.
public struct Style: Hashable, Sendable {
    public var role: Role
    public var bold: Bool
    public var underline: Bool
    public var reverse: Bool

    public init(_ role: Role = .text, bold: Bool = false, underline: Bool = false, reverse: Bool = false) {
        self.role = role
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
    }

    public static let text = Style(.text)
    public static let dim = Style(.dim)
    public static let title = Style(.title, bold: true)
    public static let border = Style(.border)
    public static let selection = Style(.selection, reverse: false)
    public static let good = Style(.good)
    public static let warning = Style(.warning)
    public static let bad = Style(.bad, bold: true)
    public static let accent = Style(.accent)
    public static let header = Style(.header, bold: true)
    public static let status = Style(.statusBar)
    public static let statusText = Style(.statusText)
    public static let input = Style(.input, underline: true)
    public static let graph = Style(.graph)
    public static let background = Style(.background)
}
