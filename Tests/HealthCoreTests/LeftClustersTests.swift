import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A test run that is killed never reaches `atexit`, so its throwaway PostgreSQL would run on until the
/// machine restarts (one was found 55 minutes after its run). The next run stops and removes it.
@Suite(.heavy, .enabled(if: TestPostgres.installedBinFolder != nil, "PostgreSQL is not installed (no initdb): apt-get install postgresql"))
struct LeftClustersTests {
    @Test func aClusterWhoseTestRunWasKilledIsStoppedAndRemovedByTheNextRun() async throws {
        let bin = try #require(TestPostgres.installedBinFolder)
        let runAs = try TestPostgres.accountToRunAs()
        // initdb, pg_ctl and the waits on them run on a thread of their own, not the task pool's.
        let left = try await offThePool { () throws -> String in
            // The run the cluster belongs to, killed once its cluster is up. Alive until then: a test process
            // starting beside this one sweeps clusters whose owner is gone, and would remove this one mid-initdb.
            let run = try SpawnedProcess(URL(fileURLWithPath: "/bin/cat"), [], input: .pipe)
            let folder = try TestPostgres.startCluster(bin: bin, runAs: runAs, owner: run.pid)
            run.terminate(SIGKILL)
            _ = run.wait()
            return folder
        }
        let postmaster = try #require(try String(contentsOfFile: left + "/data/postmaster.pid", encoding: .utf8)
            .split(separator: "\n").first.flatMap { pid_t($0) })
        #expect(try await offThePool { !Self.hasExited(postmaster, within: 0) }, "the left cluster's server runs")

        // And one whose process is alive (this one): left as it is.
        let alive = try await offThePool { try TestPostgres.startCluster(bin: bin, runAs: runAs, owner: getpid()) }
        let leftStopped = try await offThePool { () -> Bool in
            LeftClusters.sweep(bin: bin, runAs: runAs)
            return Self.hasExited(postmaster, within: 10)
        }
        #expect(!FileManager.default.fileExists(atPath: left), "the left cluster's folder is removed")
        #expect(leftStopped, "the left cluster's server is stopped")
        #expect(FileManager.default.fileExists(atPath: alive + "/data/postmaster.pid"), "a live run's cluster is left running")
        _ = try await offThePool { TestPostgres.stopCluster(in: alive, bin: bin, runAs: runAs) }
    }

    /// Whether process `pid` has ended within `seconds`: gone, or a zombie its new parent (init, here the
    /// machine's own) has not reaped yet, which runs nothing.
    static func hasExited(_ pid: pid_t, within seconds: Double) -> Bool {
        Waiting.blockingUntil(within: .seconds(seconds), every: .milliseconds(50)) {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // The state follows the command name in parentheses: "1234 (postgres) Z …".
            guard let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }
    }
}
