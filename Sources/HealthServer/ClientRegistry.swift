import Foundation
import HealthCore
import HealthModel

/// An OAuth client as `/authorize` and `/token` see it.
struct KnownClient: Sendable, Equatable {
    var id: String
    /// Where sign-ins are sent; nil for a client that may not use `/authorize` (registered without one).
    var redirectURI: String?
    /// A public client has no secret (hmon's own terminal client); it may not use `client_credentials`.
    var isPublic: Bool
    /// The user whose devices the client's own tokens post to; without one, no `client_credentials`.
    var ownerID: String? = nil
}

/// Finds clients: hmon's built-in public client, and those registered with `hmon client add`.
struct ClientRegistry: Sendable {
    let store: any TokenStore

    static let builtIn = KnownClient(id: BuiltInClient.id, redirectURI: BuiltInClient.redirectURI, isPublic: true)

    func client(id: String) async throws -> KnownClient? {
        if id == Self.builtIn.id { return Self.builtIn }
        guard let client = try await store.client(id: id) else { return nil }
        return KnownClient(id: client.id, redirectURI: client.redirectURI, isPublic: false, ownerID: client.ownerID)
    }

    /// The client when the credentials are right: a registered client needs its secret; the public one none.
    func authenticate(id: String, secret: String?) async throws -> KnownClient? {
        if id == Self.builtIn.id { return secret == nil || secret == "" ? Self.builtIn : nil }
        guard let secret, !secret.isEmpty, let client = try await store.verifyClient(id: id, secret: secret) else { return nil }
        return KnownClient(id: client.id, redirectURI: client.redirectURI, isPublic: false, ownerID: client.ownerID)
    }

    /// The redirect to use: the registered one, when the request names it or none. A client registered
    /// without a redirect (a bridge using `client_credentials`) has none: accepting whatever a link asks
    /// for would send tokens wherever an attacker's link points.
    func redirect(for client: KnownClient, requested: String?) -> String? {
        // A redirect registered before the rule existed is checked again: a script address is never followed.
        guard let registered = client.redirectURI, RedirectURIRules.accepts(registered) else { return nil }
        guard let requested, !requested.isEmpty else { return registered }
        return requested == registered ? registered : nil
    }
}
