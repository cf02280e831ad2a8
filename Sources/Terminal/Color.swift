import CheckedNumbers

/// A colour as a theme writes it: `#RRGGBB`.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red; self.green = green; self.blue = blue
    }

    /// Parses `#RRGGBB` (the `#` is required; hex digits in either case).
    public init?(hex: String) {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// `#rrggbb`.
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The colour as one 24-bit number, as direct-colour terminals number their colours.
    public var packed: Int32 { Int32(red) << 16 | Int32(green) << 8 | Int32(blue) }

    /// Squared distance in RGB space: good enough to pick the nearest of a small palette.
    func distance(to other: RGB) -> Int {
        let dr = Int(red) - Int(other.red), dg = Int(green) - Int(other.green), db = Int(blue) - Int(other.blue)
        return dr * dr + dg * dg + db * db
    }

    /// Perceived brightness 0...255 (Rec. 601 weights).
    var luma: Double { 0.299 * Double(red) + 0.587 * Double(green) + 0.114 * Double(blue) }
}

/// How many colours the terminal can show, best first.
public enum ColorDepth: String, Sendable, CaseIterable, Comparable {
    /// Any `#RRGGBB` exactly (a direct-colour terminal, or one whose palette ncurses may redefine).
    case trueColor
    /// The xterm 256-colour palette.
    case colors256
    /// The 16 ANSI colours (8 plus bright).
    case colors16
    /// The 8 basic ANSI colours.
    case colors8
    /// No colour: roles are told apart by bold, underline and reverse.
    case monochrome

    public static func < (a: ColorDepth, b: ColorDepth) -> Bool {
        allCases.firstIndex(of: a)! > allCases.firstIndex(of: b)!
    }

    /// Decides the depth from what the terminal reports (ncurses' `COLORS` and `can_change_color()`) and
    /// the environment. `NO_COLOR` (set and not empty, see no-color.org) or `--no-color` give monochrome.
    public static func detect(colors: Int, canChangeColor: Bool, environment: [String: String],
                              noColor: Bool = false) -> ColorDepth {
        if noColor { return .monochrome }
        if let value = environment["NO_COLOR"], !value.isEmpty { return .monochrome }
        guard colors >= 8 else { return .monochrome }
        if colors >= 0x100_0000 { return .trueColor }
        // Exact theme colours on a 256-colour terminfo mean redefining palette slots: only where the
        // terminal on the other end is known to honour it (inside tmux with xterm-256color the
        // slots were redefined, tmux ignored it, and text came out black on navy).
        if colors >= 256, canChangeColor, PaletteRedefinition.isHonoured(environment) { return .trueColor }
        if colors >= 256 { return .colors256 }
        if colors >= 16 { return .colors16 }
        return .colors8
    }
}

/// Whether redefining palette slots (terminfo's `initc`, which ncurses' `can_change_color` reports) reaches
/// the screen. terminfo says what the terminal type can do, not what the program on the other end does: a
/// multiplexer (tmux, screen) takes the escape and ignores it, whatever `TERM` says. So it counts only
/// outside a multiplexer, on a terminal that says it draws direct colour (`COLORTERM=truecolor` or
/// `24bit`) or that names itself (xterm's `XTERM_VERSION`, VTE's `VTE_VERSION`, Konsole's
/// `KONSOLE_VERSION`, or a `TERM_PROGRAM` known to take palette changes).
public enum PaletteRedefinition {
    static let knownPrograms: Set<String> = ["iTerm.app", "WezTerm", "vscode", "ghostty", "kitty", "Hyper", "Tabby"]

    public static func isHonoured(_ environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        let multiplexed = environment["TMUX"].map { !$0.isEmpty } == true || environment["STY"].map { !$0.isEmpty } == true
            || term.hasPrefix("screen") || term.hasPrefix("tmux")
        guard !multiplexed else { return false }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" { return true }
        if ["XTERM_VERSION", "VTE_VERSION", "KONSOLE_VERSION"].contains(where: { environment[$0].map { !$0.isEmpty } == true }) {
            return true
        }
        return environment["TERM_PROGRAM"].map(knownPrograms.contains) == true
    }
}

/// Maps `#RRGGBB` to the nearest colour a smaller palette has.
public enum ColorMapping {
    /// The six levels of each channel in xterm's 6×6×6 colour cube (indices 16...231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The nearest xterm-256 index, chosen from the colour cube and the grey ramp (232...255: 8, 18, … 238).
    /// The first 16 are left out: terminals let users redefine them.
    public static func xterm256(_ color: RGB) -> Int {
        func nearestLevel(_ v: UInt8) -> Int {
            cubeLevels.indices.min { abs(cubeLevels[$0] - Int(v)) < abs(cubeLevels[$1] - Int(v)) }!
        }
        let r = nearestLevel(color.red), g = nearestLevel(color.green), b = nearestLevel(color.blue)
        let cube = RGB(UInt8(cubeLevels[r]), UInt8(cubeLevels[g]), UInt8(cubeLevels[b]))
        let cubeIndex = 16 + 36 * r + 6 * g + b

        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let step = min(23, max(0, Int(rounding: Double(average - 8) / 10)))
        let greyLevel = UInt8(8 + 10 * step)
        let grey = RGB(greyLevel, greyLevel, greyLevel)

        return color.distance(to: grey) < color.distance(to: cube) ? 232 + step : cubeIndex
    }

    /// xterm's default colours for the 16 ANSI indices (0–7 normal, 8–15 bright).
    public static let ansi16: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0),
        RGB(0, 0, 238), RGB(205, 0, 205), RGB(0, 205, 205), RGB(229, 229, 229),
        RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0),
        RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]

    /// The nearest of the 8 basic colours (0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white).
    /// Chosen by hue, not RGB distance: themes use soft colours, and a pastel green must stay green, not
    /// become yellow. Colours with little chroma become black or white by brightness.
    public static func basic8(_ color: RGB) -> Int {
        if let hue = hueIndex(color) { return hue }
        return color.luma < 128 ? 0 : 7
    }

    /// The nearest of the 16 ANSI colours: the hue as for `basic8`, bright (8–15) when the colour is bright;
    /// greys pick black, dark grey (8), light grey (7) or white (15).
    public static func basic16(_ color: RGB) -> Int {
        if let hue = hueIndex(color) {
            return max(color.red, color.green, color.blue) > 0xd8 ? hue + 8 : hue
        }
        switch color.luma {
        case ..<48: return 0
        case ..<168: return 8
        case ..<236: return 7
        default: return 15
        }
    }

    /// The basic colour index (1...6) nearest in hue, or nil for a grey.
    private static func hueIndex(_ color: RGB) -> Int? {
        let r = Double(color.red), g = Double(color.green), b = Double(color.blue)
        let high = max(r, g, b), low = min(r, g, b), chroma = high - low
        guard chroma >= 32, chroma / high >= 0.2 else { return nil }
        var hue: Double
        if high == r { hue = (g - b) / chroma }
        else if high == g { hue = (b - r) / chroma + 2 }
        else { hue = (r - g) / chroma + 4 }
        hue = (hue * 60).truncatingRemainder(dividingBy: 360)
        if hue < 0 { hue += 360 }
        // Sectors of 60° centred on red, yellow, green, cyan, blue, magenta.
        let sectors = [1, 3, 2, 6, 4, 5]
        return sectors[Int(rounding: hue / 60) % 6]
    }

    /// The colour number for `color` at `depth` (for `.trueColor` the packed 24-bit value), or nil in monochrome.
    public static func number(for color: RGB, depth: ColorDepth) -> Int? {
        switch depth {
        case .trueColor: Int(color.packed)
        case .colors256: xterm256(color)
        case .colors16: basic16(color)
        case .colors8: basic8(color)
        case .monochrome: nil
        }
    }
}
