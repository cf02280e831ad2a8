import Foundation
#if canImport(Testing)
import Testing
#endif

/// One shared limit on the tests that start something heavy: an in-process server, PostgreSQL
/// connections, a terminal in tmux, a child `hmon` that runs for seconds.
///
/// `swift test` runs every test at once on a task pool of one thread per core. Dozens of servers and
/// terminals at once on two cores starve each other until a request waits minutes for its answer; with a
/// slot each, the heavy tests take turns and the run gets slower under load, never wrong. Pure tests take
/// no slot and stay fully parallel.
///
/// A slot is held by a task and the tasks it starts (a task-local): a test that takes one and then runs a
/// world that takes one too (`.heavy` on the suite, `ServerWorld.run` inside) holds only the first, so
/// nested takers never wait on themselves. Waiting for a slot suspends; it holds no thread.
public actor TestSlots {
    /// The limit every heavy test shares: `HMON_TEST_SLOTS` when set, else twice the cores (at least 4),
    /// so that a test waiting on a child process or a socket leaves its core to another.
    public static let shared = TestSlots(count: defaultCount)

    static var defaultCount: Int {
        if let given = ProcessInfo.processInfo.environment["HMON_TEST_SLOTS"].flatMap(Int.init), given > 0 { return given }
        return max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Whether the current task already holds a slot.
    @TaskLocal static var holdsOne = false

    private let count: Int
    private var taken = 0
    /// Waiting tasks, first come first served.
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    /// Runs `body` holding a slot of the shared limit (at once when this task already holds one).
    public static func withSlot<T>(isolation: isolated (any Actor)? = #isolation,
                                   _ body: () async throws -> T) async throws -> T {
        if holdsOne { return try await body() }
        await shared.take()
        do {
            let result = try await $holdsOne.withValue(true) { try await body() }
            await shared.give()
            return result
        } catch {
            await shared.give()
            throw error
        }
    }

    private func take() async {
        if taken < count {
            taken += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func give() {
        if waiting.isEmpty {
            taken -= 1
        } else {
            // The slot passes straight to the first waiter: `taken` stays.
            waiting.removeFirst().resume()
        }
    }
}

// TestSupport is a plain target, so a release build with the static Swift runtime (the README's install, which has
// no Testing module) compiles it too: the trait is there only where Testing is.
#if canImport(Testing)
/// `.heavy` on a suite: each of its tests runs holding a slot of `TestSlots.shared`. For the suites that
/// start servers, PostgreSQL connections or terminals outside a world that takes one itself.
public struct HeavyTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> HeavyTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await TestSlots.withSlot { try await function() }
    }
}

extension Trait where Self == HeavyTrait {
    /// Each test of the suite holds a slot of `TestSlots.shared` while it runs.
    public static var heavy: HeavyTrait { HeavyTrait() }
}
#endif
