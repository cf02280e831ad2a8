import Foundation
import HealthCore
import HealthModel

/// The token a change feed was opened with. A feed lives no longer than its token: revoked (here, on
/// another server of the same store, or by a password change, which revokes all of a user's tokens),
/// signed out, or expired, its streams end within a second (`ChangeFeed`), as its requests get 401 at once.
struct FeedCredential: Sendable, Hashable {
    let token: String
    /// A read-only personal token (`Authorization: Token …`), kept in a table of its own.
    let isPersonal: Bool
    let expiresAt: Date?

    func hasExpired(at now: Date) -> Bool {
        expiresAt.map { now >= $0 } ?? false
    }

    /// Whether the store still knows the token: nil when the store could not say (busy), so that a stream
    /// never ends for a store's hiccup.
    func isKnown(to store: any TokenStore, now: Date) async -> Bool? {
        do {
            return isPersonal ? try await store.personalToken(token) != nil
                              : try await store.token(token, kind: .access, now: now) != nil
        } catch {
            return nil
        }
    }
}
