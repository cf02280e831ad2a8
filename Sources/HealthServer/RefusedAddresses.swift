import CheckedNumbers
import NIOCore
import Synchronization

/// Addresses whose connections were just closed for going on after being told to wait
/// (`RefusalStreakHandler`). For a few seconds after, a new connection from such an address is accepted
/// but not read (`GuardedHTTP1Channel`): a client that reconnects at once to pipeline again then costs the
/// server nothing. Reading, refusing and closing such connections in a loop kept the event loops busy
/// enough that another address's requests waited past a second; someone else behind the same address
/// waits at most those seconds. A trusted proxy's own address stands for many users and is never paused.
final class RefusedAddresses: Sendable {
    /// How long an address's new connections wait before they are read.
    let pause: TimeAmount
    private let trustedProxies: TrustedProxies
    private let pausedUntil = Mutex<[String: NIODeadline]>([:])
    /// Past this many paused addresses, the ended pauses are dropped as a new one is added, so that a
    /// client with many addresses cannot grow the table without end.
    private static let pruneAbove = 4096

    init(pauseSeconds: Double, trustedProxies: TrustedProxies = .none) {
        pause = .nanoseconds(Int64(rounding: max(0, pauseSeconds) * 1_000_000_000))
        self.trustedProxies = trustedProxies
    }

    /// `address` had a connection closed for its refusals: its new connections wait `pause` from now.
    func refused(_ address: String?) {
        guard let address, !trustedProxies.isTrusted(address) else { return }
        let now = NIODeadline.now()
        pausedUntil.withLock { table in
            if table.count > Self.pruneAbove { table = table.filter { $0.value > now } }
            table[address] = now + pause
        }
    }

    /// How long a connection from `address` accepted now waits before it is read; nil for none.
    func waitBeforeReading(_ address: String?) -> TimeAmount? {
        guard let address else { return nil }
        let now = NIODeadline.now()
        return pausedUntil.withLock { table in
            guard let end = table[address] else { return nil }
            guard end > now else {
                table[address] = nil
                return nil
            }
            return end - now
        }
    }
}
