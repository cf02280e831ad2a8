import CNcurses

/// A theme mapped down to the terminal's colour depth: one ncurses colour pair per role, plus the
/// attributes that carry meaning where colour cannot (monochrome, and dim text in 8/16 colours).
public struct Palette: Sendable, Equatable {
    public let theme: Theme
    public let depth: ColorDepth

    public init(theme: Theme, depth: ColorDepth) {
        self.theme = theme
        self.depth = depth
    }

    /// The colour pair a role draws with: 1 + its index in `Role.allCases`; 0 (the terminal's own) in monochrome.
    public func pairNumber(for role: Role) -> Int16 {
        depth == .monochrome ? 0 : Int16(Role.allCases.firstIndex(of: role)! + 1)
    }

    /// Which theme colours a role's pair uses. Selection and status bar roles are backgrounds with their
    /// own text colour on top; every other role is its colour on the theme background.
    public static func colorRoles(for role: Role) -> (foreground: Role, background: Role) {
        switch role {
        case .background: (.text, .background)
        case .selection, .selectionText: (.selectionText, .selection)
        case .statusBar, .statusText: (.statusText, .statusBar)
        default: (role, .background)
        }
    }

    /// The terminal colour numbers of a role's pair at this depth (packed RGB for `.trueColor`), nil in
    /// monochrome. When mapping makes text and background the same colour, the text becomes black or
    /// white (whichever contrasts with the background) so nothing disappears on a small palette.
    public func colorNumbers(for role: Role) -> (foreground: Int, background: Int)? {
        let (fgRole, bgRole) = Self.colorRoles(for: role)
        let fgColor = theme[fgRole], bgColor = theme[bgRole]
        guard let fg = ColorMapping.number(for: fgColor, depth: depth),
              let bg = ColorMapping.number(for: bgColor, depth: depth) else { return nil }
        guard fg == bg, fgColor != bgColor else { return (fg, bg) }
        let contrast = bgColor.luma < 128 ? RGB(255, 255, 255) : RGB(0, 0, 0)
        return (ColorMapping.number(for: contrast, depth: depth)!, bg)
    }

    /// The attributes a role always carries. In monochrome they are all that tells roles apart: selection and
    /// the status bar reverse, bad is bold and underlined, good bold, warnings and input underlined, dim text dim.
    public func roleAttributes(for role: Role) -> (bold: Bool, underline: Bool, reverse: Bool, dim: Bool) {
        switch depth {
        case .monochrome:
            switch role {
            case .selection, .selectionText, .statusBar, .statusText: (false, false, true, false)
            case .bad: (true, true, false, false)
            case .good, .title, .header, .accent: (true, false, false, false)
            case .warning, .input: (false, true, false, false)
            case .dim: (false, false, false, true)
            default: (false, false, false, false)
            }
        case .colors8, .colors16:
            (false, false, false, role == .dim)
        case .colors256, .trueColor:
            (false, false, false, false)
        }
    }

    /// The ncurses attribute bits for `style` (its own bold/underline/reverse plus the role's), without the pair.
    func attributes(for style: Style) -> attr_t {
        let role = roleAttributes(for: style.role)
        var bits = hm_A_NORMAL()
        if style.bold || role.bold { bits |= hm_A_BOLD() }
        if style.underline || role.underline { bits |= hm_A_UNDERLINE() }
        if style.reverse != role.reverse { bits |= hm_A_REVERSE() }
        if role.dim { bits |= hm_A_DIM() }
        return bits
    }

    /// Defines the colour pairs in ncurses (after `start_color`). With `.trueColor` it uses direct colour when
    /// the terminal numbers colours as RGB, else redefines palette slots 16 and up (ncurses restores them at exit),
    /// else falls back to the nearest xterm-256 colours. Returns the depth actually used.
    @MainActor
    func install() -> ColorDepth {
        guard depth != .monochrome else { return .monochrome }
        if depth == .trueColor && hm_COLORS() < 0x100_0000 {
            guard can_change_color() && hm_COLORS() >= 256 else {
                return Palette(theme: theme, depth: .colors256).install()
            }
            var slots: [RGB: Int32] = [:]
            for role in Role.allCases {
                let (fgRole, bgRole) = Self.colorRoles(for: role)
                for color in [theme[fgRole], theme[bgRole]] where slots[color] == nil {
                    let slot = Int32(16 + slots.count)
                    slots[color] = slot
                    init_extended_color(slot, Int32(color.red) * 1000 / 255,
                                        Int32(color.green) * 1000 / 255, Int32(color.blue) * 1000 / 255)
                }
                init_extended_pair(Int32(pairNumber(for: role)), slots[theme[fgRole]]!, slots[theme[bgRole]]!)
            }
            return .trueColor
        }
        for role in Role.allCases {
            guard let (fg, bg) = colorNumbers(for: role) else { continue }
            init_extended_pair(Int32(pairNumber(for: role)), Int32(fg), Int32(bg))
        }
        return depth
    }
}
