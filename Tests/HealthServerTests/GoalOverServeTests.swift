import Foundation
import HealthCore
import HealthModel
import Testing

/// The goal weight travels over the profile extension of `hmon serve`.
@Suite struct GoalOverServeTests {
    @Test func aGoalSetThroughTheServerIsStoredAndReadBack() async throws {
        try await ServerWorld.run { world in
            let client = try await world.aliceClient()
            var profile = try await client.profile()
            profile.goalKg = MassUnit.lb.toKg(150)
            try await client.updateProfile(profile)
            let stored = try await world.store.profile(userID: world.alice.id)
            #expect(abs((stored.goalKg ?? 0) - 68.0388555) < 1e-6)
            #expect(try await client.profile().goalKg == stored.goalKg)
            // bob's profile is untouched.
            #expect(try await world.store.profile(userID: world.bob.id).goalKg == nil)
        }
    }

    @Test func anImpossibleGoalIsRefusedByTheServer() async throws {
        try await ServerWorld.run { world in
            let client = try await world.aliceClient()
            var profile = try await client.profile()
            profile.goalKg = 0.2
            await #expect(throws: HealthError.self) { try await client.updateProfile(profile) }
            #expect(try await world.store.profile(userID: world.alice.id).goalKg == nil)
        }
    }
}
