import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server for the tests that run on both stores: the one `HMON_TEST_POSTGRES_URL`
/// names (a superuser's URL; `.ci/run` may start one), else a throwaway cluster this test process
/// makes — `initdb` into a temporary folder, the server listening only on a Unix socket in that folder
/// (no port to collide with), stopped and removed when the process exits. Each test gets a database
/// of its own (`newDatabaseURL()`).
///
/// initdb refuses to run as root, so as root (CI's containers) the cluster belongs to the `postgres`
/// account Debian's package makes (else `nobody`), started through `runuser`.
///
/// When none can be had, `unavailableReason` says why, and the PostgreSQL half of the tests is skipped
/// with that reason.
public enum TestPostgres {
    /// Why there is no PostgreSQL to test on; nil when there is one.
    public static var unavailableReason: String? {
        if case .failure(let reason) = server { return reason.text }
        return nil
    }

    public static var isAvailable: Bool { unavailableReason == nil }

    /// A new, empty database on the server, as a `postgres://` URL.
    public static func newDatabaseURL() throws -> String {
        let server = try server.get()
        let name = "hmon_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let created = try SpawnedProcess.run(server.psql, [server.adminURL, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
        guard created.status == 0 else { throw Unavailable(text: "CREATE DATABASE failed: \(created.errors)") }
        return server.url(database: name)
    }

    /// `newDatabaseURL()` from a task: psql runs on a thread of its own, not the task pool's.
    public static func newDatabase() async throws -> String {
        try await offThePool { try newDatabaseURL() }
    }

    /// `psql(_:_:)` from a task: psql runs on a thread of its own, not the task pool's.
    public static func query(_ url: String, _ sql: String) async throws -> String {
        try await offThePool { try psql(url, sql) }
    }

    /// Runs `sql` with psql on the database `url` names; returns what psql printed (unaligned, tuples only).
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let server = try server.get()
        let finished = try SpawnedProcess.run(server.psql, [url, "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
        guard finished.status == 0 else { throw Unavailable(text: "psql failed: \(finished.errors)") }
        return finished.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public struct Unavailable: Error, CustomStringConvertible {
        public let text: String
        public var description: String { text }
    }

    struct Server: Sendable {
        var psql: URL
        /// A superuser's URL, for CREATE DATABASE.
        var adminURL: String
        /// The URL of another database on the same server.
        var url: @Sendable (String) -> String
        func url(database: String) -> String { url(database) }
    }

    static let server: Result<Server, Unavailable> = start()

    private static func start() -> Result<Server, Unavailable> {
        guard let bin = binFolder() else {
            return .failure(Unavailable(text: "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): apt-get install postgresql"))
        }
        let psql = bin.appendingPathComponent("psql")
        if let given = ProcessInfo.processInfo.environment["HMON_TEST_POSTGRES_URL"], !given.isEmpty {
            guard var components = URLComponents(string: given) else {
                return .failure(Unavailable(text: "HMON_TEST_POSTGRES_URL is not a URL"))
            }
            let base = components
            components.path = "/postgres"
            let admin = components.string ?? given
            return .success(Server(psql: psql, adminURL: admin, url: { name in
                var each = base
                each.path = "/" + name
                return each.string ?? given
            }))
        }
        do {
            let runAs = try accountToRunAs()
            LeftClusters.sweep(bin: bin, runAs: runAs)
            let folder = try startCluster(bin: bin, runAs: runAs, owner: getpid())
            Stopper.register(bin: bin, folder: folder, runAs: runAs)
            let admin = "postgresql://postgres@localhost/postgres?host=\(folder)"
            return .success(Server(psql: psql, adminURL: admin, url: { name in "postgres://postgres@localhost/\(name)?host=\(folder)" }))
        } catch let error as Unavailable {
            return .failure(error)
        } catch {
            return .failure(Unavailable(text: "cannot start a PostgreSQL cluster: \(error)"))
        }
    }

    /// The newest /usr/lib/postgresql/N/bin (Debian's layout), else the folder of initdb on PATH.
    private static func binFolder() -> URL? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let bin = URL(fileURLWithPath: "\(root)/\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        return InstalledTool.path(of: "initdb")?.deletingLastPathComponent()
    }

    /// Stops the server of the throwaway cluster in `folder` at once and removes the folder.
    public static func stopCluster(in folder: String, bin: URL, runAs: RunAs) {
        let stop = runAs.prefix + [bin.appendingPathComponent("pg_ctl").path, "-D", folder + "/data", "-m", "immediate", "-w", "stop"]
        _ = try? SpawnedProcess.run(URL(fileURLWithPath: stop[0]), Array(stop.dropFirst()))
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The newest PostgreSQL's bin folder, for the tests of the clusters themselves.
    public static var installedBinFolder: URL? { binFolder() }

    /// The account PostgreSQL's tools run as: an unprivileged one when this process is root (initdb
    /// refuses root), else this process's own.
    public struct RunAs: Sendable {
        /// The account the cluster's folder is given to; nil when the tools run as this process.
        public let account: String?
        /// What goes before a tool's path to run it as `account`.
        public let prefix: [String]
    }

    public static func accountToRunAs() throws -> RunAs {
        guard getuid() == 0 else { return RunAs(account: nil, prefix: []) }
        let account = getpwnam("postgres") != nil ? "postgres" : "nobody"
        guard let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw Unavailable(text: "running as root with no runuser to start PostgreSQL as another account") }
        return RunAs(account: account, prefix: [runuser, "-u", account, "--"])
    }

    /// A throwaway cluster in a new `/tmp/hmon-pg-*` folder, started and listening on a Unix socket there;
    /// returns the folder.
    /// `owner` is the process whose exit ends it: its id is written in the folder (`LeftClusters`).
    /// `durable`: see `startServer`.
    public static func startCluster(bin: URL, runAs: RunAs, owner: pid_t, durable: Bool = false) throws -> String {
        var template = Array("/tmp/hmon-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Unavailable(text: "mkdtemp failed") }
        let folder = String(cString: made)
        let data = folder + "/data"
        try "\(owner)\n".write(toFile: folder + "/" + LeftClusters.ownerFile, atomically: true, encoding: .utf8)
        if let account = runAs.account, let user = getpwnam(account) {
            guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw Unavailable(text: "cannot give \(folder) to \(account): \(String(cString: strerror(errno)))")
            }
        }
        try runTool("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"], bin: bin, runAs: runAs)
        try startServer(in: folder, bin: bin, runAs: runAs, durable: durable)
        return folder
    }

    /// Starts (again) the server of the cluster in `folder`, listening on a Unix socket there; returns once it
    /// takes connections. Tuned for speed: without `durable`, a commit returns before its WAL is written, and
    /// an immediate stop (`stopServer`) loses the last second's commits; `durable` keeps them (the files are
    /// still not synced to disk, which only a machine's crash would need).
    public static func startServer(in folder: String, bin: URL, runAs: RunAs, durable: Bool = false) throws {
        let options = "-k \(folder) -c listen_addresses='' -p 5432 -c fsync=off -c synchronous_commit=\(durable ? "on" : "off") "
            + "-c full_page_writes=off -c max_connections=400 -c shared_buffers=32MB"
        try runTool("pg_ctl", ["-D", folder + "/data", "-o", options, "-l", folder + "/server.log", "-w", "-t", "60", "start"],
                    bin: bin, runAs: runAs)
    }

    /// Stops the server of the cluster in `folder` at once (`-m immediate`: as a crash or a pulled plug would,
    /// without waiting for its clients), leaving its files; returns once it has stopped.
    public static func stopServer(in folder: String, bin: URL, runAs: RunAs) throws {
        try runTool("pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], bin: bin, runAs: runAs)
    }

    private static func runTool(_ tool: String, _ arguments: [String], bin: URL, runAs: RunAs) throws {
        let command = runAs.prefix + [bin.appendingPathComponent(tool).path] + arguments
        let finished = try SpawnedProcess.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
        guard finished.status == 0 else {
            throw Unavailable(text: "\(tool) failed (\(finished.status)): \(finished.errors)\(finished.output)")
        }
    }
}

/// Clusters left running by test processes that were killed: `atexit` (`Stopper`) never ran for them, so
/// their servers would run on until the machine restarts. Each cluster's folder names the process it
/// belongs to; a test process stops and removes every cluster whose process is gone before it starts
/// its own. A folder without the file (or whose process is alive, or belongs to another user) is left.
public enum LeftClusters {
    static let ownerFile = "owner.pid"

    /// Stops and removes the clusters in `/tmp/hmon-pg-*` whose owner process no longer exists.
    public static func sweep(bin: URL, runAs: TestPostgres.RunAs) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/tmp") else { return }
        for name in names where name.hasPrefix("hmon-pg-") {
            let folder = "/tmp/" + name
            guard let text = try? String(contentsOfFile: folder + "/" + ownerFile, encoding: .utf8),
                  let owner = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), owner > 0,
                  kill(owner, 0) != 0, errno == ESRCH else { continue }
            TestPostgres.stopCluster(in: folder, bin: bin, runAs: runAs)
        }
    }
}

/// Stops the throwaway cluster when the test process exits.
private enum Stopper {
    nonisolated(unsafe) static var cluster: (folder: String, bin: URL, runAs: TestPostgres.RunAs)?

    static func register(bin: URL, folder: String, runAs: TestPostgres.RunAs) {
        cluster = (folder, bin, runAs)
        atexit {
            guard let cluster = Stopper.cluster else { return }
            TestPostgres.stopCluster(in: cluster.folder, bin: cluster.bin, runAs: cluster.runAs)
        }
    }
}
