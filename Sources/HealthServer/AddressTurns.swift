import Synchronization

/// Each client address's turns at the server: at most `perAddress` of its requests are handled at once, the
/// rest wait, first come first served. Fifty connections of one host pipelining requests otherwise each kept
/// a request in the server at every moment and took fifty shares of two cores to another host's one: its
/// requests waited seconds. Now one host's requests, however many connections carry them, take at most
/// `perAddress` shares. Who waits costs a suspended task: each connection handles one request at a time, so
/// an address has at most as many waiting as it has connections (`OpenConnections` caps those).
final class AddressTurns: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Line {
        var running = 0
        var waiting: [Waiter] = []
    }

    private struct State {
        var lines: [String: Line] = [:]
        var nextID: UInt64 = 0
    }

    let perAddress: Int
    private let state = Mutex(State())

    init(perAddress: Int) { self.perAddress = max(1, perAddress) }

    /// Waits for one of `address`'s turns; throws `CancellationError` if the task is cancelled meanwhile.
    /// Each turn taken is given back with `give`.
    func take(_ address: String) async throws {
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    // Checked under the lock: a cancellation before this line finds no waiter to resume.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    var line = state.lines[address, default: Line()]
                    defer { state.lines[address] = line }
                    if line.running < perAddress {
                        line.running += 1
                        return .success(())
                    }
                    line.waiting.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let gone: Waiter? = state.withLock { state in
                guard let index = state.lines[address]?.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.lines[address]?.waiting.remove(at: index)
            }
            gone?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives back a turn of `address`: to the first of its waiters, if any.
    func give(_ address: String) {
        let next: Waiter? = state.withLock { state in
            guard var line = state.lines[address] else { return nil }
            if line.waiting.isEmpty {
                line.running -= 1
                state.lines[address] = line.running > 0 ? line : nil
                return nil
            }
            let next = line.waiting.removeFirst()
            state.lines[address] = line
            return next
        }
        next?.continuation.resume()
    }

    /// Addresses with a request running or waiting (tests).
    var busyAddresses: Int { state.withLock { $0.lines.count } }
}
