import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting for a condition with a deadline: the only place in the tests that sleeps.
///
/// A test that sleeps and then asserts passes when the code is merely slow and fails when the machine is;
/// a test that polls until the condition holds returns as soon as it does, and its deadline only guards
/// against a hang, so it is generous. The async forms suspend between looks and hold no thread of Swift's
/// cooperative pool; the blocking form is for code already on a thread of its own (see `offThePool`).
public enum Waiting {
    /// How long a condition may take before the test gives up on it: far beyond what a slow, loaded
    /// machine needs, since a passing test never waits for it. (30 s was once too short: in a full run
    /// beside two other builds, load 23 on 2 cores, a feed's events took longer than that to come.)
    public static let patience: Duration = .seconds(90)
    /// `patience` for the helpers that count in seconds.
    public static let patienceInSeconds = Double(patience.components.seconds)
    /// How often a condition is looked at.
    public static let interval: Duration = .milliseconds(20)

    /// Asks `probe` until it gives a value, and returns it; nil when `deadline` passed first.
    public static func firstValue<Value>(within deadline: Duration = patience, every interval: Duration = interval,
                                         _ probe: () async throws -> Value?) async rethrows -> Value? {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while true {
            if let value = try await probe() { return value }
            if clock.now >= end { return nil }
            try? await Task.sleep(for: interval)
        }
    }

    /// Looks at `condition` until it holds (true) or `deadline` passed (false).
    @discardableResult
    public static func until(within deadline: Duration = patience, every interval: Duration = interval,
                             _ condition: () async throws -> Bool) async rethrows -> Bool {
        try await firstValue(within: deadline, every: interval) { try await condition() ? true : nil } ?? false
    }

    /// The same on a thread of the caller's own (never on the task pool): blocks between looks.
    public static func blockingFirstValue<Value>(within deadline: Duration = patience, every interval: Duration = interval,
                                                 _ probe: () throws -> Value?) rethrows -> Value? {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        let pause = useconds_t(max(1, interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000))
        while true {
            if let value = try probe() { return value }
            if clock.now >= end { return nil }
            usleep(pause)
        }
    }

    /// Looks at `condition` on the caller's own thread until it holds (true) or `deadline` passed (false).
    @discardableResult
    public static func blockingUntil(within deadline: Duration = patience, every interval: Duration = interval,
                                     _ condition: () throws -> Bool) rethrows -> Bool {
        try blockingFirstValue(within: deadline, every: interval) { try condition() ? true : nil } ?? false
    }

    /// Kills `pid` with SIGKILL once `deadline` has passed, unless the returned task is cancelled first:
    /// a hung child must fail its test, not hang the run.
    public static func killing(_ pid: pid_t, after deadline: Duration) -> Task<Void, Never> {
        Task {
            try? await Task.sleep(for: deadline)
            if !Task.isCancelled { kill(pid, SIGKILL) }
        }
    }

    /// Keeps a fixture's answer open for as long as its test needs it (a stream that never ends), until
    /// the task it runs in is cancelled.
    public static func holdOpen() async {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
    }

    /// A client's own pace, on a thread of its own (a header trickled a byte at a time, a pause within an
    /// idle timeout, a back-off after a 503): part of the scenario a test plays, never a wait for a result.
    public static func clientPause(_ duration: Duration) {
        usleep(useconds_t(max(1, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)))
    }

    /// A client's own pace in a task (requests spaced out as a person's are): never a wait for a result.
    public static func clientPause(for duration: Duration) async {
        try? await Task.sleep(for: duration)
    }

    /// Watches for `duration` whether `condition` ever comes to hold, and says whether it did: for what must
    /// *not* happen (a client that must not try again). Only a condition that does hold ends it early, so a
    /// slow machine can make the test miss a fault, never fail one that is not there.
    public static func neverWithin(_ duration: Duration, every interval: Duration = interval,
                                   _ condition: () async throws -> Bool) async rethrows -> Bool {
        try await !until(within: duration, every: interval, condition)
    }
}
