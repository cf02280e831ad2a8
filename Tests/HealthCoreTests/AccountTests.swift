import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

@Suite struct AccountTests {
    @Test(arguments: StoreEngine.available) func signingInWithTheRightPasswordGivesASessionForThisStore(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "alice", fullName: "Alice", password: "correct horse"))
        let service = LocalHealthService(store: world.store)
        let session = try await service.signIn(name: "alice", password: "correct horse")
        #expect(session.userName == "alice")
        #expect(session.location == world.store.location)
        #expect(session.token.count >= 32)
        #expect(try await service.currentUser().name == "alice")
    }

    @Test(arguments: StoreEngine.available) func aWrongPasswordOrUnknownNameIsRefusedTheSameWay(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let service = LocalHealthService(store: world.store)
        await #expect(throws: HealthError.wrongPassword) { try await service.signIn(name: "alice", password: "wrong") }
        await #expect(throws: HealthError.wrongPassword) { try await service.signIn(name: "bob", password: "correct horse") }
        await #expect(throws: HealthError.notSignedIn) { try await service.currentUser() }
    }

    @Test(arguments: StoreEngine.available) func aTakenNameIsRefusedWhateverItsCase(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        await #expect(throws: HealthError.nameTaken("Alice")) {
            try await world.store.createUser(NewAccount(name: "Alice", password: "another-pw"))
        }
        #expect(try await world.store.users().count == 1)
    }

    @Test(arguments: StoreEngine.available) func passwordsAreStoredOnlyAsSaltedScryptHashes(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "alice", password: "same password"))
        _ = try await world.store.createUser(NewAccount(name: "bob", password: "same password"))
        let hashes = try await world.strings("SELECT password_hash FROM users")
        #expect(hashes.count == 2)
        #expect(hashes[0] != hashes[1])
        for hash in hashes {
            #expect(hash.hasPrefix("scrypt$"))
            #expect(!hash.contains("same password"))
        }
    }

    /// On PostgreSQL the readings have no foreign keys since schema version 15 (a per-row check was a third
    /// of a large import); triggers delete them with their device and account instead.
    @Test(arguments: StoreEngine.available) func deletingAnAccountDeletesItsDevicesAndReadingsAndNoOneElses(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let alice = try await world.store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let bob = try await world.store.createUser(NewAccount(name: "bob", password: "secret-pw"))
        let scale = BuiltInDeviceType.scale.deviceType.id
        for user in [alice, bob] {
            let device = try await world.store.addDevice(name: "Scale", typeID: scale, userID: user.id)
            for day in 1...3 {
                _ = try await world.store.post(NewMessage(sdid: device.id, ts: Int64(day) * 86_400_000, data: [Field.weight: .number(70)]),
                                               userID: user.id)
            }
        }
        try await world.store.deleteUser(id: alice.id)
        // Readings name their user by the bytes of its id (`BinaryID`), kept as the user's `key`.
        #expect(try await world.strings("SELECT DISTINCT u.id FROM messages AS m JOIN users AS u ON u.key = m.uid") == [bob.id])
        #expect(try await world.strings("SELECT DISTINCT uid FROM devices") == [bob.id])
        #expect(try await world.rowCount("messages") == 3)
    }

    @Test func theDefaultPasswordCostIsStrong() throws {
        #expect(PasswordHasher.strong.rounds >= 1 << 15)
        let hash = try PasswordHasher.fastForTests.hash("pw-1234")
        #expect(PasswordHasher.verify("pw-1234", against: hash))
        #expect(!PasswordHasher.verify("pw-1235", against: hash))
        #expect(!PasswordHasher.verify("pw-1234", against: "scrypt$garbage"))
    }

    @Test(arguments: StoreEngine.available) func badAccountValuesAreRefusedAndNothingIsWritten(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        await #expect(throws: HealthError.self) { try await world.store.createUser(NewAccount(name: "", password: "secret-pw")) }
        await #expect(throws: HealthError.self) { try await world.store.createUser(NewAccount(name: "al ice", password: "secret-pw")) }
        await #expect(throws: HealthError.self) { try await world.store.createUser(NewAccount(name: "alice", password: "pw")) }
        await #expect(throws: HealthError.self) {
            try await world.store.createUser(NewAccount(name: "alice", email: "not-an-email", password: "secret-pw"))
        }
        #expect(try await world.rowCount("users") == 0)
    }

    @Test(arguments: StoreEngine.available) func aSavedSessionResumesUntilSignOutRevokesIt(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let session = try await LocalHealthService(store: world.store).signIn(name: "alice", password: "secret-pw")

        let nextLaunch = LocalHealthService(store: world.store)
        #expect(try await nextLaunch.resume(session).name == "alice")
        try await nextLaunch.signOut()
        await #expect(throws: HealthError.notSignedIn) { try await nextLaunch.devices() }

        let afterSignOut = LocalHealthService(store: world.store)
        await #expect(throws: HealthError.sessionExpired) { try await afterSignOut.resume(session) }
    }

    @Test(arguments: StoreEngine.available) func aSessionOfAnotherStoreOrWithAForgedTokenDoesNotResume(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let session = try await LocalHealthService(store: world.store).signIn(name: "alice", password: "secret-pw")
        var elsewhere = session
        elsewhere.location = "/somewhere/else.sqlite"
        var forged = session
        forged.token = Secrets.newToken()
        let service = LocalHealthService(store: world.store)
        await #expect(throws: HealthError.sessionExpired) { try await service.resume(elsewhere) }
        await #expect(throws: HealthError.sessionExpired) { try await service.resume(forged) }
    }

    @Test(arguments: StoreEngine.available) func actingAsANamedUserNeedsNoPasswordButAnExistingName(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let service = LocalHealthService(store: world.store)
        #expect(try await service.actingAs(name: "alice").name == "alice")
        await #expect(throws: HealthError.unknownUser("bob")) { try await service.actingAs(name: "bob") }
    }

    @Test(arguments: StoreEngine.available) func profileChangesAreSavedAndImpossibleValuesRefused(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        #expect(try await service.profile() == Profile())
        let profile = Profile(birthDate: Day(iso: "1988-04-12"), sex: .female, heightCm: 168, massUnit: .lb,
                              energyUnit: .kJ, bmrFormula: .harrisBenedict)
        try await service.updateProfile(profile)
        #expect(try await service.profile() == profile)
        var tall = profile
        tall.heightCm = 1680
        await #expect(throws: HealthError.self) { try await service.updateProfile(tall) }
        #expect(try await service.profile() == profile)
    }
}
