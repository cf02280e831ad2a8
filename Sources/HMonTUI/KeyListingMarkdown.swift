import HealthViewModels
import Terminal

/// `hmon keys --markdown`: docs/dashboard.md's key tables, made from the tables the keys are looked up in
/// and the help overlay prints (the keys as shipped: no config.toml applied), so the docs cannot name a key
/// the dashboard does not have or leave one out. `KeysInDocsTests` fails when the docs differ from it.
@MainActor
public enum KeyListingMarkdown {
    /// The comment lines the generated tables sit between in docs/dashboard.md.
    public static let begin = "<!-- keys: written by `hmon keys --markdown` from the key tables; do not edit by hand -->"
    public static let end = "<!-- end of keys -->"

    /// The tables: everywhere after sign-in, each screen in tab order, then the forms, prompts and questions.
    public static func tables(of dashboard: Dashboard) -> String {
        let sections: [(String, [Binding])] = [("Everywhere after sign-in", dashboard.globalBindings)]
            + dashboard.screens.map { ($0.title, $0.allBindings) }
            + [("Sign-in and create-account forms", KeyMap.signIn), ("Profile and setup forms", KeyMap.profileForm),
               ("A prompt (`a`, `e`, `t`)", KeyMap.prompt), ("Finding a text (`/`)", KeyMap.findPrompt),
               ("The command palette (`:`)", KeyMap.palette), ("Signing out (`L`)", KeyMap.confirm)]
        return sections.map { title, bindings in
            (["| \(title) | does |", "|---|---|"] + bindings.map { "| \(keys($0.keys)) | \(cell($0.help)) |" }).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// `tables` between the markers, as the docs hold it.
    public static func block(of dashboard: Dashboard) -> String {
        [begin, "", tables(of: dashboard), "", end].joined(separator: "\n")
    }

    /// "`k` ↑": a key typed as a character in code, a named key (↑, PgUp, Ctrl-U) as it is written.
    static func keys(_ keys: [Key]) -> String {
        keys.map { key in
            if case .char(let c) = key, c != " " { return "`\(c)`" }
            return cell(key.description)
        }.joined(separator: " ")
    }

    /// A table cell's text: a `|` would end the cell.
    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
}
