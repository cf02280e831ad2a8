import Foundation

/// Answers of hmon's views already computed and written, kept while the store is unchanged: R on a screen
/// whose data did not change, a dashboard coming back to a screen, or a person's second dashboard costs one
/// look at the store's change token instead of the screen's queries and its JSON.
///
/// Only views that are a function of the store and the request are kept (never one that reads the server's
/// clock), under `TokenKeyedCache`'s rule, with the token read straight from the store (not the 50 ms
/// `StoreVersionProbe`).
final class ViewAnswers: Sendable {
    struct Answer: Sendable {
        var body: Data
        var tag: String
    }

    /// Past this many bytes of bodies, the answers of older tokens go first, then all of them: a year of
    /// weigh-ins is about 1 MB, so 64 MB is room for dozens of dashboards' screens.
    private let cache: TokenKeyedCache<String, Answer>

    init(capacityBytes: Int = 64 << 20) { cache = TokenKeyedCache(capacity: capacityBytes) { $0.body.count } }

    /// The answer kept for `key` while the store is at `token`, else the one `compute` gives, then kept.
    func answer(for key: String, token: Int64, compute: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        try await cache.value(for: key, token: token, compute: compute)
    }

    /// How many answers are kept, and how many requests waited for another's (for tests).
    var count: Int { cache.count }
    var waited: Int { cache.waited }
}
