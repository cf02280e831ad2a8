/// What one screen call may ask for: the server refuses more with a 400, so the models ask for no more.
public enum ScreenLimits {
    /// The most devices one screen names (a person's scales or HRV meters, their food logs).
    public static let maxDevices = 50
    /// The most readings one screen lists. A table scrolled back past it keeps its older rows on a refresh
    /// (`RefreshedList`), and only the newest this many are asked for again.
    public static let maxListed = 10_000
}
