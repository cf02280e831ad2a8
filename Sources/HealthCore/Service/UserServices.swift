import Foundation
import HealthModel

/// The service for each user of one store: what a server route, a push or a background sync that acts for
/// many people uses to reach one person's data. It holds the store, so those callers hold only the roles
/// they read directly (a token, a link's owner), and every reading they bring in goes through
/// `LocalHealthService` with the same rules as one typed on the dashboard.
public struct UserServices: Sendable {
    private let store: any HealthStore

    public init(store: any HealthStore) {
        self.store = store
    }

    /// A service acting for `userID`; cheap, made per request.
    /// - Parameter undoSession: the journal its changes go to (a token's); nil keeps none, as for a phone's
    ///   push or a scale's sync, which the person did not type and does not undo.
    public func service(for userID: String, undoSession: String? = nil) -> LocalHealthService {
        LocalHealthService(store: store, userID: userID, undoSession: undoSession)
    }

    /// A Welltory measurement sent to a link's secret: the secret names the user, and the store resolves it
    /// in the same transaction as the write, so a link revoked meanwhile keeps nothing.
    public func welltoryResult(secret: String, data: [String: FieldValue], now: Date) async throws -> WelltoryCallbackOutcome {
        try await store.storeWelltoryResult(secret: secret, data: data, now: now)
    }
}
