import ArgumentParser
import HMonCommandLine

/// Which database: `--db PATH` (or a `postgres://` URL), else `$HMON_DB`, else the default store.
struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file, or a postgres://USER@HOST[:PORT]/DATABASE URL (default: $HMON_DB, else $XDG_DATA_HOME/hmon/hmon.sqlite).",
        valueName: "path|url"))
    var db: String?
}

/// Where the data is and whom to act for; every subcommand that reads or writes a user's data takes these.
struct StoreOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOption

    @OptionGroup var remote: ServerOption

    @Option(name: .long, help: ArgumentHelp(
        "Act for this user (on a local store; default: the signed-in user, or the only account).", valueName: "name"))
    var user: String?

    @Flag(help: "Use the demo store (user demo), created with demo data on first use; never your own.")
    var demo = false

    func validate() throws {
        if demo, database.db != nil || remote.server != nil {
            throw ValidationError("--demo uses the local demo store: leave out --db and --server")
        }
    }
}

extension StoreOpener {
    /// The opener for a subcommand's `--db`, `--server`, `--password-stdin` and `--user`.
    init(_ options: StoreOptions) {
        self.init(db: options.database.db, demo: options.demo, user: options.user, server: options.remote.server,
                  passwordStdin: options.remote.passwordStdin)
    }

    /// The opener for a subcommand that works on a local store as a whole (`--db` only).
    init(_ database: DatabaseOption) {
        self.init(db: database.db)
    }
}
