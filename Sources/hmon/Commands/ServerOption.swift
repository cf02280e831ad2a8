import ArgumentParser

/// `--server URL`: work against `hmon serve` (or any server speaking the SAMI contract) instead of a local
/// store. The session (token, refresh token, server, expiry) is kept in the session file, mode 0600.
struct ServerOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Work against a server instead of a local store (default: $HMON_SERVER).", valueName: "url"))
    var server: String?

    @Flag(name: .customLong("password-stdin"), help: "Signing in to --server: read the password from standard input.")
    var passwordStdin = false
}
