import Foundation
import HealthCore
@testable import HealthServer
import TestSupport
import Testing

/// Exist's documentation joins scopes with `+`; a client that percent-encodes it sends `%2B`. Space, `+`,
/// `%2B` and comma name the same two scopes.
@Suite struct ScopeSeparatorTests {
    @Test(arguments: ["health_read health_write", "health_read+health_write", "health_read%2Bhealth_write",
                      "health_read%2bhealth_write", "health_read,health_write"])
    func everySeparatorNamesTheSameScopes(_ requested: String) {
        #expect(Scope.normalized(requested) == "health_read,health_write")
    }

    @Test(arguments: StoreEngine.available)
    func anAuthorizeLinkWithAnEncodedPlusIsShownItsForm(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let redirect = "https://sync.example/exist/callback"
            let (client, _) = try await world.store.createClient(name: "Exist sync", redirectURI: redirect)
            let page = try await world.get("/oauth2/authorize?response_type=code&client_id=\(client.id)"
                                           + "&redirect_uri=\(redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
                                           + "&scope=health_read%2Bhealth_write")
            #expect(page.status == 200, "\(page.text)")
            #expect(page.text.contains("health_read,health_write"), "the form carries the two scopes: \(page.text)")
        }
    }
}
