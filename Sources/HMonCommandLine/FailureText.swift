import HealthCore
import HealthModel

/// How a failure reads at the command line, after `hmon: `: what is wrong, then how to fix it with
/// hmon's own options. The core says only what is wrong; the fix is the command line's to word.
public enum FailureText {
    /// The message escaped for a terminal (`TerminalText`): errors quote names, paths and a file's bytes.
    public static func message(for error: any Error) -> String {
        TerminalText.escaped(unescaped(error))
    }

    private static func unescaped(_ error: any Error) -> String {
        switch error {
        case HealthError.unusableStore(let store): "\(store.description): \(fix(for: store.reason))"
        case let error as HealthError: error.message
        case let error as CommandError: error.message
        default: "\(error)"
        }
    }

    /// What to do about a store file that cannot be used.
    static func fix(for reason: UnusableStore.Reason) -> String {
        switch reason {
        case .writtenByNewerHmon: "upgrade hmon or pass another --db"
        case .noStore: "create one with `hmon user add NAME --db PATH` (or `hmon demo`), or pass another --db"
        case .olderLayout: "open it once with `hmon --db PATH` (the dashboard) or a command that adds data, which updates it, then try again"
        case .notPermitted, .readOnly: "check its permissions or pass another --db"
        case .damaged: "restore it from a backup or pass another --db"
        case .cannotCreateFolder, .cannotCreate, .isAFolder, .notSQLite, .anotherProgramsFile, .cannotOpen: "pass another --db"
        }
    }
}
