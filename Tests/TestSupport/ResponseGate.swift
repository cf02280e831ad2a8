import Synchronization

/// Once armed, holds the first request whose path and query contain `marker` until `release()`; everything
/// else goes through. Used as the server's `beforeEachRequest` to make an early answer arrive last.
public final class ResponseGate: Sendable {
    private let marker: String
    private let state = Mutex<(armed: Bool, held: Bool, waiter: CheckedContinuation<Void, Never>?, released: Bool)>((false, false, nil, false))

    public init(holding marker: String) { self.marker = marker }

    public func beforeRequest(_ uri: String) async {
        guard uri.contains(marker) else { return }
        let hold = state.withLock { s -> Bool in
            guard s.armed, !s.held, !s.released else { return false }
            s.held = true
            return true
        }
        guard hold else { return }
        await withCheckedContinuation { continuation in
            let releaseNow = state.withLock { s -> Bool in
                if s.released { return true }
                s.waiter = continuation
                return false
            }
            if releaseNow { continuation.resume() }
        }
    }

    public func arm() { state.withLock { $0.armed = true } }

    /// Waits until the held request has arrived; false when it has not within `deadline` (a marker that no
    /// request carries any more fails the test instead of hanging the run).
    public func heldRequestArrived(within deadline: Duration = Waiting.patience * 4) async -> Bool {
        await Waiting.until(within: deadline) { state.withLock { $0.held } }
    }

    public func release() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.released = true
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }
}

