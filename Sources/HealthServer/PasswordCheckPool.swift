import Foundation
import HealthCore
import HealthModel
import NIOPosix
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where password checks run: a few threads of their own (fewer than the cores), at a lower scheduling
/// priority, with a bounded queue. A scrypt check takes about a tenth of a second of one core; run on the
/// threads that answer requests, six parallel guessers pushed an authenticated `GET` from 2 ms to 900 ms.
/// Here they only ever take these threads, and past the queue's room a sign-in is answered
/// 503 with `Retry-After` at once instead of waiting behind a guesser's backlog.
///
/// Waiting checks are taken in two lines: `.first` (an address and an account with no recent failure:
/// most likely a person with the right password) before `.later` (after failures: most likely guesses),
/// so a spray of guesses delays real sign-ins by at most the checks already running; and `.later` may
/// fill only part of the room, so guesses cannot get real sign-ins refused either.
///
/// It is a `Service` of the application only so its threads stop with the server.
final class PasswordCheckPool: Service, Sendable {
    enum Line: Sendable {
        case first, later
    }

    private struct Job: Sendable {
        var check: @Sendable () -> Bool
        var done: CheckedContinuation<Bool, Never>
    }

    private struct Waiting: Sendable {
        var first: [Job] = []
        var later: [Job] = []
        var count: Int { first.count + later.count }
    }

    /// Checks waiting, in their lines.
    private let waiting = Mutex(Waiting())
    /// Checks running or waiting; past `threads + queueLimit` a new one is refused.
    private let pending = Atomic<Int>(0)
    /// Checks of the `.later` line running or waiting; past `threads + queueLimit - reservedForFirst` a new
    /// one is refused, so the room reserved for clean sign-ins is never taken by guesses (before,
    /// six guessers filled the one shared room and 15 of 53 real sign-ins were answered 503).
    private let pendingLater = Atomic<Int>(0)
    private let pool: NIOThreadPool
    let threads: Int
    let queueLimit: Int
    /// How many checks of the `.later` line are running or waiting (for tests).
    var pendingLaterChecks: Int { pendingLater.load(ordering: .relaxed) }
    /// How many checks of either line are running or waiting (for tests).
    var pendingChecks: Int { pending.load(ordering: .relaxed) }
    /// Room only the `.first` line may take: half the queue, at least one place.
    var reservedForFirst: Int { max(1, queueLimit / 2) }

    /// The server's default: one thread per two cores (at least one), so half the machine or more is
    /// always left for requests; room for eight waiting checks a thread.
    convenience init() {
        let threads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
        self.init(threads: threads, queueLimit: 8 * threads)
    }

    init(threads: Int, queueLimit: Int) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        pool = NIOThreadPool(numberOfThreads: self.threads)
        pool.start()
    }

    /// Thrown when every thread is busy and the queue is full: the caller answers 503.
    struct Full: Error {}

    /// Runs `check` on the pool and returns its verdict; throws `Full` at once when the queue has no room.
    func run(_ check: @escaping @Sendable () -> Bool, line: Line = .first) async throws -> Bool {
        let before = pending.add(1, ordering: .relaxed).oldValue
        let laterBefore = line == .later ? pendingLater.add(1, ordering: .relaxed).oldValue : 0
        defer {
            pending.subtract(1, ordering: .relaxed)
            if line == .later { pendingLater.subtract(1, ordering: .relaxed) }
        }
        guard before < threads + queueLimit, laterBefore < threads + queueLimit - reservedForFirst else { throw Full() }
        return await withCheckedContinuation { continuation in
            let job = Job(check: check, done: continuation)
            waiting.withLock { waiting in
                switch line {
                case .first: waiting.first.append(job)
                case .later: waiting.later.append(job)
                }
            }
            // One pool task per job; each takes whichever job is at the head of the lines when it runs.
            pool.submit { state in self.runNext(state) }
        }
    }

    private func runNext(_ state: NIOThreadPool.WorkItemState) {
        let next = waiting.withLock { waiting -> Job? in
            if !waiting.first.isEmpty { return waiting.first.removeFirst() }
            if !waiting.later.isEmpty { return waiting.later.removeFirst() }
            return nil
        }
        guard let job = next else { return }
        guard state == .active else {
            // The server is stopping: nothing is checked, so nothing matches.
            job.done.resume(returning: false)
            return
        }
        Self.lowerThisThreadsPriority()
        job.done.resume(returning: job.check())
    }

    /// Nice 5 for the calling pool thread: when the cores are all busy, the kernel gives the request
    /// threads the CPU first (about three times the share). On Linux the nice value belongs to each
    /// thread, and `who` 0 names the calling one (setpriority(2), "BUGS"). Lowering one's own priority
    /// needs no privilege, and these threads never need it back.
    private static func lowerThisThreadsPriority() {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < 5 {
            _ = setpriority(which, 0, 5)
        }
        #endif
    }

    func run() async throws {
        // Stays up as long as the server; its threads end with it.
        try? await gracefulShutdown()
        try? await pool.shutdownGracefully()
    }
}
