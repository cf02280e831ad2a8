import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of one test's own, which that test may stop and start again under a running server
/// (the shared one, `TestPostgres`, serves every other test and must stay up). Made with `initdb` into a
/// `/tmp/hmon-pg-*` folder like the shared one, listening only on a Unix socket there; `remove()` stops it and
/// deletes the folder, and a run killed before that leaves it to the next run's `LeftClusters` sweep.
///
/// Its commits survive `stop()` (`durable`): the test checks the data is intact after the database's return.
///
/// Every call waits for initdb, pg_ctl or psql on a thread of its own, never on the task pool.
public struct PrivatePostgres: Sendable {
    public let folder: String
    let bin: URL
    let runAs: TestPostgres.RunAs

    /// Why no private cluster can be made here (no PostgreSQL installed); nil when one can.
    public static var unavailableReason: String? {
        TestPostgres.installedBinFolder == nil
            ? "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): apt-get install postgresql" : nil
    }

    /// The database `hmon` on it, as a `postgres://` URL.
    public var url: String { "postgres://postgres@localhost/hmon?host=\(folder)" }

    /// A new cluster, started, with an empty database `hmon`.
    public static func start() async throws -> PrivatePostgres {
        guard let bin = TestPostgres.installedBinFolder else { throw TestPostgres.Unavailable(text: unavailableReason ?? "") }
        let runAs = try TestPostgres.accountToRunAs()
        let folder = try await offThePool { try TestPostgres.startCluster(bin: bin, runAs: runAs, owner: getpid(), durable: true) }
        let cluster = PrivatePostgres(folder: folder, bin: bin, runAs: runAs)
        do {
            let admin = "postgresql://postgres@localhost/postgres?host=\(folder)"
            let created = try await SpawnedProcess.running(bin.appendingPathComponent("psql"),
                                                           [admin, "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE hmon"])
            guard created.status == 0 else { throw TestPostgres.Unavailable(text: "CREATE DATABASE failed: \(created.errors)") }
        } catch {
            await cluster.remove()
            throw error
        }
        return cluster
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`), keeping its data.
    public func stop() async throws {
        try await offThePool { [folder, bin, runAs] in try TestPostgres.stopServer(in: folder, bin: bin, runAs: runAs) }
    }

    /// Starts the stopped server again, on the same socket and data.
    public func restart() async throws {
        try await offThePool { [folder, bin, runAs] in try TestPostgres.startServer(in: folder, bin: bin, runAs: runAs, durable: true) }
    }

    /// Stops the server if it runs and deletes the folder.
    public func remove() async {
        _ = try? await offThePool { [folder, bin, runAs] in TestPostgres.stopCluster(in: folder, bin: bin, runAs: runAs) }
    }

    /// Runs `body` with a new cluster, removed afterwards whatever happens.
    public static func with<T>(isolation: isolated (any Actor)? = #isolation,
                               _ body: (PrivatePostgres) async throws -> T) async throws -> T {
        let cluster = try await start()
        do {
            let result = try await body(cluster)
            await cluster.remove()
            return result
        } catch {
            await cluster.remove()
            throw error
        }
    }
}
