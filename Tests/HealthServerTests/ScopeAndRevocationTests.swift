import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
import TestSupport

/// Issue 29, case 9: a token that may only write read the profile, and `PUT /revokeAccessToken` with a
/// personal token answered "revoked" while the token went on working.
@Suite struct ScopeAndRevocationTests {
    @Test(arguments: StoreEngine.available) func aWriteOnlyTokenDoesNotReadTheProfile(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let writer = try await world.scopedToken("food_write")
            #expect(try await world.get("/api/2/accounts/profile/", token: writer).status == 403)
            let reader = try await world.scopedToken("food_read")
            let profile = try await world.get("/api/2/accounts/profile/", token: reader)
            #expect(profile.status == 200, "\(profile.text)")
            #expect(try profile.json["username"] as? String == "alice")
        }
    }

    @Test(arguments: StoreEngine.available) func revokingAPersonalTokenThroughTheAPISaysItCannotAndTheTokenIsUnchanged(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (_, personal) = try await world.store.createPersonalToken(userID: world.alice.id, label: "phone")
            let reply = try await RawHTTP.send("PUT", world.url.appendingPathComponent("revokeAccessToken").absoluteString + "?token=\(personal)")
            #expect(reply.status == 400, "\(reply.text)")
            #expect(reply.text.contains("hmon token revoke"), "\(reply.text)")
            #expect(try await world.getWithPersonal("/api/2/attributes/", token: personal).status == 200, "the token works as before")
            // An access token is revoked as before.
            let access = try await world.rawToken()
            let revoked = try await RawHTTP.send("PUT", world.url.appendingPathComponent("revokeAccessToken").absoluteString + "?token=\(access)")
            #expect(revoked.status == 200, "\(revoked.text)")
            #expect(try await world.get("/v1.1/users/self", token: access).status == 401)
        }
    }
}
