import Foundation
import HealthCore
import HealthModel
import HealthServer
import PostgresStorage
import Testing
import TestSupport

/// A change feed lives no longer than the token it was opened with: revoked, signed out, replaced by a
/// password change or expired, the stream ends (within a second; the waits here are generous and end as soon
/// as it does), on this server and on another of the same PostgreSQL.
@Suite struct FeedEndsWithItsTokenTests {
    @Test(arguments: StoreEngine.available) func aFeedEndsOnceItsTokenIsRevoked(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken(for: "alice")
            let feed = try await FeedListener.open(world.server.port, token: token)
            let other = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            let revoked = try await world.send("PUT", "/revokeAccessToken", token: token)
            #expect(revoked.status == 200, "\(revoked.text)")
            #expect(await feed.waitForEnd(timeout: Waiting.patienceInSeconds), "the revoked token's feed still streams: \(feed.text)")
            #expect(try await world.get("/v1.1/users/self", token: token).status == 401)
            #expect(await !other.waitForEnd(timeout: 1), "another sign-in's feed goes on: \(other.text)")
        }
    }

    @Test func aFeedEndsWhenItsSignInSignsOut() async throws {
        try await ServerWorld.run { world in
            let token = try await world.rawToken(for: "alice")
            let feed = try await FeedListener.open(world.server.port, token: token)
            let signedOut = try await world.get("/logout", token: token)
            #expect(signedOut.status == 200, "\(signedOut.text)")
            #expect(await feed.waitForEnd(timeout: Waiting.patienceInSeconds), "the signed-out token's feed still streams: \(feed.text)")
        }
    }

    @Test(arguments: StoreEngine.available) func aPasswordChangeEndsEveryFeedOfItsUser(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let alice = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            let bob = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "bob"))
            // As `hmon user password` does it: on the store, in another process or not, which revokes her tokens.
            try await world.store.setPassword("a new correct horse", userID: world.alice.id)
            #expect(await alice.waitForEnd(timeout: Waiting.patienceInSeconds), "alice's feed streams on after her password changed: \(alice.text)")
            #expect(await !bob.waitForEnd(timeout: 1), "bob's feed goes on: \(bob.text)")
        }
    }

    @Test func aFeedEndsWhenItsTokenExpires() async throws {
        try await ServerWorld.run(accessTokenLifetime: 60) { world in
            let feed = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            #expect(await !feed.waitForEnd(timeout: 0.5), "a live token's feed streams: \(feed.text)")
            world.clock.advance(by: 61)
            #expect(await feed.waitForEnd(timeout: Waiting.patienceInSeconds), "the expired token's feed still streams: \(feed.text)")
        }
    }

    @Test(.enabled(if: TestPostgres.isAvailable, Comment(rawValue: TestPostgres.unavailableReason ?? "")))
    func aTokenRevokedOnOneServerEndsItsFeedOnAnotherOfTheSamePostgres() async throws {
        try await ServerWorld.run(engine: .postgres) { world in
            try await world.withSecondServer { other in
                let token = try await world.rawToken(for: "alice")
                let onOther = try await FeedListener.open(other.port, token: token)
                let revoked = try await world.send("PUT", "/revokeAccessToken", token: token)
                #expect(revoked.status == 200, "\(revoked.text)")
                #expect(await onOther.waitForEnd(timeout: Waiting.patienceInSeconds), "the other server's feed of a token revoked on the first still streams: \(onOther.text)")
            }
        }
    }
}
