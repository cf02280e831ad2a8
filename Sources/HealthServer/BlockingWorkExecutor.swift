import Dispatch

/// A task executor on a serial dispatch queue of its own, for work that blocks a thread for long (the
/// SQLite engine's import holds its thread for the whole transaction): run under it with
/// `withTaskExecutorPreference`, the blocking call keeps that queue's thread, not one of Swift's
/// cooperative threads (two on a two-core server), which go on answering requests meanwhile.
final class BlockingWorkExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the queue is the only state, and DispatchQueue is thread-safe.
    private let queue: DispatchQueue
    private static let labelKey = DispatchSpecificKey<String>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.labelKey, value: label)
    }

    /// The label of the executor whose queue runs the calling code; nil on any other thread.
    static var currentLabel: String? { DispatchQueue.getSpecific(key: labelKey) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
