import NIOCore
import Synchronization

/// The server's open connections, against the total cap (`ConnectionLimits.maxConnections`) and the cap per
/// peer address (`ConnectionLimits.maxConnectionsPerAddress`). Under pressure a new connection takes the
/// place of the oldest *sheddable* one — one waiting for a request or with only part of its head — so
/// that idle and half-sent sockets cannot lock real users out until their timeouts.
/// A connection whose head has fully arrived is not shed: it is a real request, in its body or being
/// answered, and its own deadlines bound it.
///
/// Shared by every event loop, hence the lock; it is taken once as a connection opens, once as it closes and
/// twice per request (head arrived, answer written), never while anything waits.
final class OpenConnections: Sendable {
    /// One admitted connection, as the deadline handler names it when it reports its phase.
    struct Ticket: Sendable, Hashable {
        fileprivate let order: UInt64
    }

    enum Admission: Sendable {
        case admitted(Ticket)
        /// Over a cap with nothing to shed: answer 503 and close.
        case refused
    }

    private struct Entry {
        let channel: any Channel
        /// Nil for a trusted proxy (or an unknown peer): not counted against any address's cap.
        let address: String?
        var sheddable: Bool
    }

    private struct State {
        var nextOrder: UInt64 = 0
        /// By `Ticket.order`: the smallest is the oldest.
        var entries: [UInt64: Entry] = [:]
        var countByAddress: [String: Int] = [:]

        /// The oldest sheddable connection (of `address` when given). A scan, not an index: it runs only at a
        /// cap, over at most `limit` entries, which is microseconds — less than the accept itself.
        func oldestSheddable(of address: String? = nil) -> UInt64? {
            var oldest: UInt64?
            for (order, entry) in entries where entry.sheddable && (address == nil || entry.address == address) {
                if order < oldest ?? .max { oldest = order }
            }
            return oldest
        }

        mutating func remove(_ order: UInt64) -> Entry? {
            guard let entry = entries.removeValue(forKey: order) else { return nil }
            if let address = entry.address {
                countByAddress[address, default: 1] -= 1
                if countByAddress[address] == 0 { countByAddress[address] = nil }
            }
            return entry
        }
    }

    let limit: Int
    let limitPerAddress: Int
    private let trustedProxies: TrustedProxies
    private let state = Mutex(State())

    init(limit: Int, limitPerAddress: Int, trustedProxies: TrustedProxies = .none) {
        self.limit = max(1, limit)
        self.limitPerAddress = max(1, min(limitPerAddress, self.limit))
        self.trustedProxies = trustedProxies
    }

    var current: Int { state.withLock { $0.entries.count } }

    /// Takes a place for `channel`, from the peer `address`, shedding the oldest sheddable connection when a
    /// cap is reached: that address's own past the per-address cap, anyone's past the total cap. Refused
    /// (nothing taken, nothing shed) when the cap's connections are all busy with real requests.
    func admit(_ channel: any Channel, from address: String?) -> Admission {
        let counted = address.flatMap { trustedProxies.isTrusted($0) ? nil : $0 }
        let outcome: (admission: Admission, shed: (any Channel)?) = state.withLock { state in
            var shedOrder: UInt64?
            if let counted, state.countByAddress[counted, default: 0] >= limitPerAddress {
                guard let oldest = state.oldestSheddable(of: counted) else { return (.refused, nil) }
                shedOrder = oldest
            } else if state.entries.count >= limit {
                guard let oldest = state.oldestSheddable() else { return (.refused, nil) }
                shedOrder = oldest
            }
            let shed = shedOrder.flatMap { state.remove($0) }
            let order = state.nextOrder
            state.nextOrder += 1
            state.entries[order] = Entry(channel: channel, address: counted, sheddable: true)
            if let counted { state.countByAddress[counted, default: 0] += 1 }
            return (.admitted(Ticket(order: order)), shed?.channel)
        }
        // Closed outside the lock; `close` is safe from any thread and lands on the channel's own event loop.
        outcome.shed?.close(promise: nil)
        return outcome.admission
    }

    /// Whether the connection may be shed: true while it waits for a request or has only part of its head.
    func setSheddable(_ ticket: Ticket, _ sheddable: Bool) {
        state.withLock { state in
            state.entries[ticket.order]?.sheddable = sheddable
        }
    }

    /// Gives back the place of a connection once it has closed (nothing, if it was shed and its place is
    /// already someone else's).
    func release(_ ticket: Ticket) {
        _ = state.withLock { $0.remove(ticket.order) }
    }
}
