import Terminal

/// Theme files are text a person edits, or downloads: any bytes must end in a theme or a `ThemeError`
/// that says where, and a theme must map to colour pairs at every colour depth.
enum ThemeFuzz {
    static func parse(_ input: [UInt8]) throws(FuzzFinding) {
        let theme: Theme
        do {
            theme = try Theme.parse(String(decoding: input, as: UTF8.self), name: "fuzz", file: "fuzz.theme")
        } catch {
            if error.message.isEmpty { throw FuzzFinding("a ThemeError without a message: \(error)") }
            return
        }
        for depth in ColorDepth.allCases {
            let palette = Palette(theme: theme, depth: depth)
            for role in Role.allCases { _ = palette.colorNumbers(for: role) }
        }
    }
}
