import Foundation
import HealthCore

/// An OAuth client as `/authorize` and `/token` see it.
struct KnownClient: Sendable, Equatable {
    var id: String
    /// Where sign-ins may be sent; nil accepts any redirect the request names (a client registered without one).
    var redirectURI: String?
    /// A public client has no secret (hmon's own terminal client); it may not use `client_credentials`.
    var isPublic: Bool
}

/// Finds clients: hmon's built-in public client, and those registered with `hmon client add`.
struct ClientRegistry: Sendable {
    let store: LocalStore

    static let builtIn = KnownClient(id: BuiltInClient.id, redirectURI: BuiltInClient.redirectURI, isPublic: true)

    func client(id: String) async throws -> KnownClient? {
        if id == Self.builtIn.id { return Self.builtIn }
        guard let client = try await store.client(id: id) else { return nil }
        return KnownClient(id: client.id, redirectURI: client.redirectURI, isPublic: false)
    }

    /// The client when the credentials are right: a registered client needs its secret; the public one none.
    func authenticate(id: String, secret: String?) async throws -> KnownClient? {
        if id == Self.builtIn.id { return secret == nil || secret == "" ? Self.builtIn : nil }
        guard let secret, !secret.isEmpty, let client = try await store.verifyClient(id: id, secret: secret) else { return nil }
        return KnownClient(id: client.id, redirectURI: client.redirectURI, isPublic: false)
    }

    /// The redirect to use: the one asked for when the client allows it, else the registered one.
    func redirect(for client: KnownClient, requested: String?) -> String? {
        let requested = requested?.isEmpty == false ? requested : nil
        switch (client.redirectURI, requested) {
        case (let registered?, nil): return registered
        case (let registered?, let asked?): return registered == asked ? asked : nil
        case (nil, let asked?): return Self.isAcceptableRedirect(asked) ? asked : nil
        case (nil, nil): return nil
        }
    }

    /// An absolute URI without a fragment (the implicit flow appends its own).
    static func isAcceptableRedirect(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme, !scheme.isEmpty else { return false }
        return components.fragment == nil
    }
}
