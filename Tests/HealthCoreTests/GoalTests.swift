import Foundation
import GRDB
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// The goal weight lives in the profile, in a real SQLite file.
@Suite struct GoalTests {
    @Test func aGoalIsSavedAndReadBackAfterReopening() async throws {
        let world = try TestWorld()
        let (user, service) = try await world.user()
        var profile = try await service.profile()
        #expect(profile.goalKg == nil)
        profile.goalKg = 65
        try await service.updateProfile(profile)
        let reopened = try LocalStore(url: world.databaseURL, passwordHasher: .fastForTests)
        #expect(try await reopened.profile(userID: user.id).goalKg == 65)
    }

    @Test func anImpossibleGoalIsRefusedWithItsUnit() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        await #expect(throws: HealthError.invalidValue("goal 700 kg is outside 1–650 kg: check the number and its unit")) {
            try await service.updateProfile(Profile(goalKg: 700))
        }
        #expect(try await service.profile().goalKg == nil)
    }

    @Test func aStoreFromBeforeGoalsGainsTheColumnAndKeepsItsProfiles() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("old.sqlite")
        // A store as the previous release left it: migrated up to v3, with hmon's application id.
        let queue = try DatabaseQueue(path: url.path)
        try await queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA application_id = \(Schema.applicationID)") }
        try Schema.migrator.migrate(queue, upTo: "v3: energy consumed as recorded")
        try queue.close()

        let store = try LocalStore(url: url, passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        try await store.updateProfile(Profile(heightCm: 168, goalKg: 62.5), userID: user.id)
        #expect(try await store.profile(userID: user.id) == Profile(heightCm: 168, goalKg: 62.5))
    }

    @Test func aProfileWithoutAGoalDecodesFromAnOlderPeer() throws {
        // What a server or client from before goals sends: no "goalKg" key at all.
        let json = #"{"massUnit":"kg","energyUnit":"kcal","bmrFormula":"mifflinStJeor","heightCm":170}"#
        let profile = try JSONDecoder().decode(Profile.self, from: Data(json.utf8))
        #expect(profile == Profile(heightCm: 170))
    }
}
