import Foundation
import Synchronization

/// Answers of hmon's views already computed and written, kept while the store is unchanged: R on a screen
/// whose data did not change, a dashboard coming back to a screen, or a person's second dashboard costs one
/// look at the store's change token instead of the screen's queries and its JSON.
///
/// Only views that are a function of the store and the request are kept (never one that reads the server's
/// clock). Each answer is kept under the change token read *before* it was computed, straight from the store
/// (not the 50 ms `StoreVersionProbe`): a commit landing meanwhile, from anywhere, makes it stale, and a
/// dashboard asking again right after a change event always misses. Computing a view may keep day sums (a
/// commit of its own); that costs one more computation, never a stale answer.
final class ViewAnswers: Sendable {
    struct Answer: Sendable {
        var body: Data
        var tag: String
    }

    private struct Entry {
        var token: Int64
        var answer: Answer
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        /// Answers being computed, by key: a request for the same key and token waits for it instead of
        /// computing it again (a user's dashboards all ask again at the same change event).
        var running: [String: (token: Int64, task: Task<Answer, any Error>)] = [:]
        /// How many requests waited for another's computation (for tests).
        var waited = 0
    }

    /// Past this many bytes of bodies, the answers of older tokens go first, then all of them: a year of
    /// weigh-ins is about 1 MB, so this is room for dozens of dashboards' screens.
    private let capacityBytes: Int
    private let state = Mutex(State())

    init(capacityBytes: Int = 64 << 20) { self.capacityBytes = capacityBytes }

    /// The answer kept for `key` while the store is at `token`, else the one `compute` gives, then kept.
    func answer(for key: String, token: Int64, compute: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        enum Found { case kept(Answer), running(Task<Answer, any Error>), started(Task<Answer, any Error>) }
        let found = state.withLock { state -> Found in
            if let entry = state.entries[key], entry.token == token { return .kept(entry.answer) }
            if let running = state.running[key], running.token == token {
                state.waited += 1
                return .running(running.task)
            }
            let task = Task { try await compute() }
            state.running[key] = (token, task)
            return .started(task)
        }
        switch found {
        case .kept(let answer):
            return answer
        case .running(let task):
            return try await task.value
        case .started(let task):
            let result = await task.result
            state.withLock { state in
                if state.running[key]?.token == token { state.running[key] = nil }
                if case .success(let answer) = result { keep(answer, for: key, token: token, in: &state) }
            }
            return try result.get()
        }
    }

    private func keep(_ answer: Answer, for key: String, token: Int64, in state: inout State) {
        if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.answer.body.count }
        if state.bytes + answer.body.count > capacityBytes {
            state.entries = state.entries.filter { $0.value.token == token }
            state.bytes = state.entries.values.reduce(0) { $0 + $1.answer.body.count }
            if state.bytes + answer.body.count > capacityBytes {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
        }
        guard answer.body.count <= capacityBytes else { return }
        state.entries[key] = Entry(token: token, answer: answer)
        state.bytes += answer.body.count
    }

    /// How many answers are kept, and how many requests waited for another's (for tests).
    var count: Int { state.withLock { $0.entries.count } }
    var waited: Int { state.withLock { $0.waited } }
}
