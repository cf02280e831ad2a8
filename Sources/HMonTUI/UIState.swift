/// What the dashboard shows beyond the view models: overlays, the spinner, the theme. Owned by the app.
public struct UIState: Sendable, Equatable {
    public var showsHelp = false {
        didSet {
            helpPage = 0
            helpFilter = nil
        }
    }
    /// What the help is narrowed to while it shows: typed words, or one key (`@` then the key).
    public var helpFilter: HelpFilter? {
        didSet { helpPage = 0 }
    }
    /// The help's page on a terminal too small to show every key at once.
    public var helpPage = 0
    /// Advances while a refresh runs; the status bar picks a spinner frame from it.
    public var spinnerFrame = 0
    public var themeName = "default"
    /// A short note for the status bar that is not a problem: "theme nord".
    public var notice: String?
    /// The last `T` found a theme it could not load: said until a theme loads.
    public var themeProblem: String?
    /// config.toml, edited while hmon runs, could not be used: said until an edit that can.
    public var settingsProblem: String?

    public init(themeName: String = "default") {
        self.themeName = themeName
    }
}
