import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HealthServer

/// Issue 29, case 2: the pool refused once its one room was full, whichever line a check was in, so six
/// guessers got 15 of 53 real sign-ins answered 503. Guesses (`.later`) may now fill only part of it.
@Suite struct PasswordCheckPoolTests {
    /// Checks that hold their thread until `release` is opened, so the pool's counts are exact.
    final class Gate: Sendable {
        private let open = Mutex(false)
        func release() { open.withLock { $0 = true } }
        func wait() { Waiting.blockingUntil(within: .seconds(600), every: .milliseconds(1)) { open.withLock { $0 } } }
    }

    @Test func guessesCannotTakeTheRoomReservedForCleanSignIns() async throws {
        let pool = PasswordCheckPool(threads: 1, queueLimit: 8)
        let gate = Gate()
        let laterRoom = pool.threads + pool.queueLimit - pool.reservedForFirst
        #expect(laterRoom == 5)
        // Guesses filling the later line's room, each holding its place until the gate opens.
        let guesses = (0..<laterRoom).map { _ in Task { try await pool.run({ gate.wait(); return false }, line: .later) } }
        try #require(await Waiting.until(every: .milliseconds(5)) { pool.pendingLaterChecks >= laterRoom })
        // One more guess is refused at once.
        await #expect(throws: PasswordCheckPool.Full.self) { try await pool.run({ false }, line: .later) }
        // A clean sign-in still has room: it waits its turn, ahead of the queued guesses, and is checked.
        let signIn = Task { try await pool.run({ true }, line: .first) }
        try #require(await Waiting.until(every: .milliseconds(5)) { pool.pendingChecks > laterRoom }, "the sign-in is queued")
        gate.release()
        #expect(try await signIn.value == true)
        for guess in guesses { #expect(try await guess.value == false) }
    }
}
