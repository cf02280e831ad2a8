import ArgumentParser

/// Which database: `--db PATH` (or a `postgres://` URL), else `$HMON_DB`, else the default store.
public struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file, or a postgres://USER@HOST[:PORT]/DATABASE URL (default: $HMON_DB, else $XDG_DATA_HOME/hmon/hmon.sqlite).",
        valueName: "path|url"))
    public var db: String?

    public init() {}
}

/// `--server URL`: work against `hmon serve` (or any server speaking the SAMI contract) instead of a local
/// store. The session (token, refresh token, server, expiry) is kept in the session file, mode 0600.
public struct ServerOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Work against a server instead of a local store (default: $HMON_SERVER).", valueName: "url"))
    public var server: String?

    @Flag(name: .customLong("password-stdin"), help: "Signing in to --server: read the password from standard input.")
    public var passwordStdin = false

    public init() {}
}

/// Where the data is and whom to act for; every subcommand that reads or writes a user's data takes these,
/// and so does `hmon-mcp`.
public struct StoreOptions: ParsableArguments {
    @OptionGroup public var database: DatabaseOption

    @OptionGroup public var remote: ServerOption

    @Option(name: .long, help: ArgumentHelp(
        "Act for this user (on a local store; default: the signed-in user, or the only account).", valueName: "name"))
    public var user: String?

    @Flag(help: "Use the demo store (user demo), created with demo data on first use; never your own.")
    public var demo = false

    public init() {}

    public func validate() throws {
        if demo, database.db != nil || remote.server != nil {
            throw ValidationError("--demo uses the local demo store: leave out --db and --server")
        }
    }
}

extension StoreOpener {
    /// The opener for a subcommand's `--db`, `--server`, `--password-stdin` and `--user`.
    public init(_ options: StoreOptions) {
        self.init(db: options.database.db, demo: options.demo, user: options.user, server: options.remote.server,
                  passwordStdin: options.remote.passwordStdin)
    }

    /// The opener for a subcommand that works on a local store as a whole (`--db` only).
    public init(_ database: DatabaseOption) {
        self.init(db: database.db)
    }
}
