import Foundation
import HealthModel

/// The engine's side of tokens and OAuth clients: their rows, each call one transaction of its own, kept
/// by the secret's hash only. What a token is made of, when one still counts and what a client must be are
/// written once, over this, in `TokenStore+Rows`.
public protocol TokenRows: AnyObject, Sendable {
    /// Keeps the token whose secret hashes to `hash`; in the same transaction sweeps every token expired by `now`.
    func insertToken(hash: String, record: TokenRecord, now: Date) async throws
    /// The unspent token with this hash, whatever its kind and expiry; nil for none.
    func unspentToken(hash: String) async throws -> TokenRecord?
    /// Deletes the unspent token with this hash and returns it, in one transaction, so two requests racing
    /// with it get it once; nil for none.
    func takeUnspentToken(hash: String) async throws -> TokenRecord?
    /// Keeps the client with its secret's hash, in a transaction that first checks its owner (when it has
    /// one) is an account: `.invalidValue` otherwise.
    func insertClient(_ client: OAuthClient, secretHash: String) async throws
    /// The client with this id and its secret's hash; nil for none.
    func clientWithSecretHash(id: String) async throws -> (client: OAuthClient, secretHash: String)?
    /// Keeps a personal token (`ExistScope.allRead`, no expiry) under `id`, by its secret's hash.
    func insertPersonalToken(id: String, hash: String, userID: String, label: String, now: Date) async throws
}
