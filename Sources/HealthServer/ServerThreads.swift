import Foundation

/// Threads of the in-process servers' own, for the tasks they run (`RunningServer`: tests, and anything
/// that embeds the server). Swift's shared task pool has a thread per core, and a process that does other
/// work beside its server — a test run starts hundreds of tests at once on two cores — queues the server's
/// answers behind all of it: a client in another process then gave up after 30 s with "no answer in time".
/// With these threads preferred, the server answers however busy the pool is. `hmon serve` does not use
/// them: it is a process of its own.
@available(macOS 15, *)
final class ServerThreads: TaskExecutor, @unchecked Sendable {
    /// Shared by every in-process server of the process: servers do no blocking work on them (the store's
    /// and the password checks' waits have threads of their own), so a few serve them all.
    static let shared = ServerThreads(count: 4)

    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var next = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "hmon-server-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs in the order they came, for as long as the process lives.
    private func work() {
        while true {
            condition.lock()
            while next == queue.count { condition.wait() }
            let job = queue[next]
            next += 1
            if next > 1_024, next * 2 > queue.count {  // drop what ran, now and then, not on every job
                queue.removeFirst(next)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
