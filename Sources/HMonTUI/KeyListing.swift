import HealthViewModels

/// `hmon keys --list`: every action the dashboard has, by the name `[keys]` takes, with its keys as the
/// config leaves them and its help, everywhere first and then screen by screen; made from the same tables
/// the keys are looked up in.
@MainActor
public enum KeyListing {
    public static func text(of dashboard: Dashboard) -> String {
        let ids = dashboard.screens.map(\.id)
        let sections = [("Everywhere", dashboard.globalBindings)] + dashboard.screens.map { ($0.title, dashboard.bindings(of: $0)) }
        let rows = sections.map { title, bindings in
            (title, bindings.map { (KeyRemap.name(of: $0.action, screens: ids), $0.keyNames, $0.help) })
        }
        let nameWidth = rows.flatMap(\.1).map { $0.0.count }.max() ?? 10
        let keysWidth = rows.flatMap(\.1).map { $0.1.count }.max() ?? 6
        return rows.map { title, entries in
            ([title] + entries.map { name, keys, help in
                "  " + name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
                    + keys.padding(toLength: keysWidth, withPad: " ", startingAt: 0) + "  " + help
            }).joined(separator: "\n")
        }.joined(separator: "\n\n") + "\n"
    }
}
