import Foundation

/// Runs blocking test work (a tmux walk, a child process that runs for minutes) on a thread of its own.
///
/// Swift's task pool has a thread per core (two on these machines), and a blocking wait holds its thread
/// the whole time: two such tests at once stop every other test's tasks, the servers some tests run in
/// this process among them, and those tests' requests then time out. `#expect` belongs outside `work`:
/// an issue is attributed to its test through the task, which this thread is not part of.
public func offThePool<T: Sendable>(_ work: @escaping () throws -> T) async throws -> T {
    nonisolated(unsafe) let work = work
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

extension SpawnedProcess {
    /// `run` on a thread of its own: waiting for a child must not hold a thread of the task pool.
    public static func running(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                               stdin: String? = nil) async throws -> ChildProcess.Finished {
        try await offThePool { try run(executable, arguments, environment: environment, stdin: stdin) }
    }
}

extension ChildProcess {
    /// `run` on a thread of its own: waiting for a child must not hold a thread of the task pool.
    public static func running(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                               capturingOutput: Bool = true) async throws -> Finished {
        try await offThePool { try run(executable, arguments, environment: environment, capturingOutput: capturingOutput) }
    }
}

extension SpawnedProcess {
    /// Stops the child (SIGTERM) and waits for it to exit on a thread of its own; its exit status.
    @discardableResult
    public func terminateAndWait() async -> Int32 {
        terminate()
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.wait()) }
        }
    }

    /// Runs `body` while the child runs, then stops it and waits for it off the pool, whatever happens:
    /// a `defer` cannot await, and a `wait()` there would hold a thread of the task pool until the child exits.
    public func whileRunning<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async throws -> T {
        do {
            let result = try await body()
            await terminateAndWait()
            return result
        } catch {
            await terminateAndWait()
            throw error
        }
    }
}
