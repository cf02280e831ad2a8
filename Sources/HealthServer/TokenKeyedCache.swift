import Synchronization

/// Values computed from the store, kept while the store is unchanged: each under the change token read
/// *before* it was computed. A commit landing during the computation, from anywhere, makes the value stale at
/// once, and a client asking again right after a change event always misses. Computing may itself commit (a
/// view that keeps day sums): that costs one more computation, never a stale value.
///
/// A request for a key and token already being computed waits for that computation instead of starting its
/// own (a user's dashboards all ask again at the same change event). Errors are never kept.
///
/// Past `capacity` (in the units `cost` gives), the values of older tokens go first, then all of them.
final class TokenKeyedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Entry {
        var token: Int64
        var value: Value
        var cost: Int
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var spent = 0
        var running: [Key: (token: Int64, task: Task<Value, any Error>)] = [:]
        var waited = 0
    }

    private enum Found { case kept(Value), running(Task<Value, any Error>), started(Task<Value, any Error>) }

    private let capacity: Int
    private let cost: @Sendable (Value) -> Int
    private let state = Mutex(State())

    /// `cost` is what a value takes of `capacity`: its bytes, or 1 to count values.
    init(capacity: Int, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.capacity = capacity
        self.cost = cost
    }

    /// The value kept for `key` while the store is at `token`, else the one `compute` gives, then kept.
    func value(for key: Key, token: Int64, compute: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let found = state.withLock { state -> Found in
            if let entry = state.entries[key], entry.token == token { return .kept(entry.value) }
            if let running = state.running[key], running.token == token {
                state.waited += 1
                return .running(running.task)
            }
            let task = Task { try await compute() }
            state.running[key] = (token, task)
            return .started(task)
        }
        switch found {
        case .kept(let value):
            return value
        case .running(let task):
            return try await task.value
        case .started(let task):
            let result = await task.result
            state.withLock { state in
                if state.running[key]?.token == token { state.running[key] = nil }
                if case .success(let value) = result { keep(value, for: key, token: token, in: &state) }
            }
            return try result.get()
        }
    }

    /// The value kept for `key` at `token`, without computing one.
    func kept(for key: Key, token: Int64) -> Value? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.token == token else { return nil }
            return entry.value
        }
    }

    /// Keeps a value computed elsewhere, under the token read before it was.
    func keep(_ value: Value, for key: Key, token: Int64) {
        state.withLock { state in keep(value, for: key, token: token, in: &state) }
    }

    private func keep(_ value: Value, for key: Key, token: Int64, in state: inout State) {
        let valueCost = cost(value)
        if let old = state.entries.removeValue(forKey: key) { state.spent -= old.cost }
        if state.spent + valueCost > capacity {
            state.entries = state.entries.filter { $0.value.token == token }
            state.spent = state.entries.values.reduce(0) { $0 + $1.cost }
            if state.spent + valueCost > capacity {
                state.entries.removeAll(keepingCapacity: true)
                state.spent = 0
            }
        }
        guard valueCost <= capacity else { return }
        state.entries[key] = Entry(token: token, value: value, cost: valueCost)
        state.spent += valueCost
    }

    /// How many values are kept, and how many requests waited for another's computation (for tests).
    var count: Int { state.withLock { $0.entries.count } }
    var waited: Int { state.withLock { $0.waited } }
}
