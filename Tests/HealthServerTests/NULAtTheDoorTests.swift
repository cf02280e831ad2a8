import Foundation
import HealthCore
import HealthModel
import Testing
import TestSupport

/// One rule for both engines: a NUL in a name, id or text is refused with 400 naming the field, at the
/// door, before any store is asked. PostgreSQL answered these with 500; SQLite cut the text at the NUL,
/// so `alice%00` with alice's password signed in as alice.
@Suite struct NULAtTheDoorTests {
    @Test(arguments: StoreEngine.available) func aNULInAnIdOfAJSONBodyIsRefusedNamingItAndNothingIsWritten(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token()
            let scale = world.aliceScale.id
            let message = try await world.post("/v1.1/messages", token: token, json: #"{"sdid":"\#(scale)\u0000","data":{"weight":72.4}}"#)
            Self.expectRefused(message, naming: "sdid")
            #expect(try await world.store.lastMessages(deviceID: scale, userID: world.alice.id, count: 5).isEmpty)

            let device = try await world.post("/v1.1/devices", token: token,
                                              json: #"{"name":"Kitchen scale","uid":"\#(world.alice.id)","dtid":"\#(ServerWorld.withings)\u0000"}"#)
            Self.expectRefused(device, naming: "dtid")
            #expect(try await world.store.devices(userID: world.alice.id).map(\.name) == ["Bathroom scale"])
        }
    }

    @Test(arguments: StoreEngine.available) func aNULInTheSignInFormIsRefusedNamingTheFieldNeverASignIn(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let signIn: [(String, String)] = [("client_id", "hmon"), ("response_type", "token"), ("redirect_uri", "hmon://signed-in")]
            for (field, fields) in [("username", signIn + [("username", "alice\0"), ("password", ServerWorld.password)]),
                                    ("username", signIn + [("username", "\0"), ("password", ServerWorld.password)]),
                                    ("client_id", [("client_id", "hmon\0"), ("response_type", "token"), ("redirect_uri", "hmon://signed-in"),
                                                   ("username", "alice"), ("password", ServerWorld.password)])] {
                let reply = try await world.postForm("/authorize", fields)
                Self.expectRefused(reply, naming: field)
                #expect(reply.header("Location") == nil, "no token: \(reply.header("Location") ?? "")")
            }
            let token = try await world.postForm("/token", [("grant_type", "client_credentials"), ("client_id", "hmon\0"), ("client_secret", "x")])
            #expect(token.status == 400, "\(token.status): \(token.text)")
            #expect(token.text.contains("invalid_request") && token.text.contains("client_id"), "\(token.text)")
        }
    }

    @Test(arguments: StoreEngine.available) func aNULInExistsSimpleTokenSignInIsRefusedAsFormAndAsJSON(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let form = try await world.postForm("/api/2/auth/simple-token/", [("username", "alice\0"), ("password", ServerWorld.password)])
            Self.expectRefused(form, naming: "username")
            let json = try await world.post("/api/2/auth/simple-token/", json: #"{"username":"alice\u0000","password":"\#(ServerWorld.password)"}"#)
            Self.expectRefused(json, naming: "username")
            #expect(try await world.store.personalTokens().isEmpty, "no token was made")
        }
    }

    /// Beneath the door: neither engine is ever handed a NUL, whoever asks (the command line, an import).
    @Test(arguments: StoreEngine.available) func theStoreRefusesANULInANameOrIdOnBothEngines(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let store = world.store
            await #expect(throws: HealthError.invalidValue("username holds a NUL character (U+0000): remove it")) {
                try await store.user(named: "alice\0")
            }
            await #expect(throws: HealthError.invalidValue("username holds a NUL character (U+0000): remove it")) {
                try await store.authenticate(name: "alice\0", password: ServerWorld.password)
            }
            await #expect(throws: HealthError.invalidValue("sdid holds a NUL character (U+0000): remove it")) {
                try await store.post(NewMessage(sdid: world.aliceScale.id + "\0", data: [Field.weight: .number(72)]), userID: world.alice.id)
            }
            await #expect(throws: HealthError.self) {
                try await store.postBatch([NewMessage(sdid: world.aliceScale.id + "\0", data: [Field.weight: .number(72)])], userID: world.alice.id)
            }
            await #expect(throws: HealthError.invalidValue("dtid holds a NUL character (U+0000): remove it")) {
                try await store.addDevice(name: "Kitchen scale", typeID: ServerWorld.withings + "\0", userID: world.alice.id)
            }
            await #expect(throws: HealthError.invalidValue("client_id holds a NUL character (U+0000): remove it")) {
                try await store.client(id: "hmon\0")
            }
        }
    }

    static func expectRefused(_ reply: Reply, naming field: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 400, "\(reply.status): \(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.text.contains(field) && reply.text.contains("NUL"), "names \(field): \(reply.text)", sourceLocation: sourceLocation)
    }
}
