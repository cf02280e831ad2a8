import HealthViewModels

/// One registered screen: its name (known before any screen is made, for `hmon snapshot --screen`) and how
/// to make it for a signed-in user.
public struct ScreenEntry: Sendable {
    public let id: ScreenID
    let make: @MainActor @Sendable (ScreenContext) -> any DashboardScreen

    public init(_ id: ScreenID, _ make: @escaping @MainActor @Sendable (ScreenContext) -> any DashboardScreen) {
        self.id = id
        self.make = make
    }
}

/// The dashboard's screens after sign-in, in tab order: `1`…`n`, Tab, the tab bar, the help overlay,
/// `hmon snapshot --screen` and the reference-frame tests all follow this list.
///
/// To add a screen: write `Screens/NameScreen.swift` (a `DashboardScreen` with its `ScreenID`, actions,
/// bindings and view) and add its line here. Nothing else changes.
public enum ScreenRegistry {
    public static let tabs: [ScreenEntry] = [
        ScreenEntry(.devices) { DevicesScreen($0) },
        ScreenEntry(.weights) { WeightsScreen($0) },
        ScreenEntry(.energy) { EnergyScreen($0) },
        ScreenEntry(.hrv) { HRVScreen($0) },
        ScreenEntry(.insights) { InsightsScreen($0) },
        ScreenEntry(.overview) { OverviewScreen($0) },
        ScreenEntry(.sleep) { SleepScreen($0) },
        ScreenEntry(.vitals) { VitalsScreen($0) },
    ]

    /// Every frame `hmon snapshot` can draw: the sign-in form, each tab, and the help overlay.
    public static var snapshotNames: [String] {
        [ScreenID.signIn.rawValue] + tabs.map(\.id.rawValue) + [helpSnapshot]
    }

    /// The snapshot name of the help overlay (drawn over the first tab).
    public static let helpSnapshot = "help"
}
