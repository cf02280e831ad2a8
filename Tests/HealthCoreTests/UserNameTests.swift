import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// Issue 16, item 6: one account per name after Unicode normalization and case folding, no look-alike
/// accounts, and passwords that are text.
@Suite struct UserNameTests {
    @Test func namesAreComparedAfterNFKCAndCaseFolding() {
        #expect(UserNames.key("Élodie") == UserNames.key("élodie"))
        #expect(UserNames.key("E\u{301}lodie") == UserNames.key("élodie"), "decomposed É")
        #expect(UserNames.key("ＡＬＩＣＥ") == "alice", "full-width letters")
        #expect(UserNames.key("STRASSE") == UserNames.key("straße"), "ß folds to ss")
        #expect(UserNames.key("alice") != UserNames.key("alicia"))
    }

    /// Hand-worked from confusables.txt: Cyrillic а (U+0430), е (U+0435), о (U+043E), Greek ο (U+03BF).
    @Test func mixedScriptLookAlikesShareASkeleton() {
        #expect(UserNames.skeleton("\u{0430}lice") == "alice")
        #expect(UserNames.skeleton("\u{0410}LICE") == "alice", "uppercase Cyrillic А folds first")
        #expect(UserNames.skeleton("b\u{043E}\u{03BF}k") == "book")
        #expect(UserNames.skeleton("j\u{043E}rg") != UserNames.skeleton("jürg"))
        #expect(UserNames.key("\u{0430}lice") != UserNames.key("alice"), "a look-alike is not the same name")
    }

    @Test(arguments: StoreEngine.available, ["Alice", "ALICE", "ａｌｉｃｅ", "ＡＬＩＣＥ"])
    func aNameThatFoldsToAnExistingOneIsTaken(_ engine: StoreEngine, other: String) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.user("alice")
        await #expect(throws: HealthError.nameTaken(other)) {
            try await world.store.createUser(NewAccount(name: other, password: "secret-pw"))
        }
        #expect(try await world.store.users().count == 1)
    }

    @Test(arguments: StoreEngine.available) func accentedNamesInEitherCaseOrNormalFormAreOneAccount(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.store.createUser(NewAccount(name: "élodie", password: "secret-pw"))
        for other in ["Élodie", "E\u{301}LODIE", "e\u{301}lodie"] {
            await #expect(throws: HealthError.nameTaken(other)) {
                try await world.store.createUser(NewAccount(name: other, password: "secret-pw"))
            }
        }
        // Signing in and acting by name compare the same way.
        #expect(try await world.store.authenticate(name: "ÉLODIE", password: "secret-pw").name == "élodie")
        #expect(try await world.store.user(named: "E\u{301}lodie")?.name == "élodie")
    }

    @Test(arguments: StoreEngine.available) func aCyrillicLookAlikeOfAnExistingNameIsRefused(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        _ = try await world.user("alice")
        await #expect(throws: HealthError.invalidValue(
            "name \"\u{0430}lice\" looks like the existing user name \"alice\" (it mixes letters of another script): choose another")) {
            try await world.store.createUser(NewAccount(name: "\u{0430}lice", password: "secret-pw"))
        }
        // A name in Cyrillic alone that looks like no existing one is fine.
        _ = try await world.store.createUser(NewAccount(name: "\u{0430}\u{043D}\u{044F}", password: "secret-pw"))
        #expect(try await world.store.users().count == 2)
    }

    @Test(arguments: StoreEngine.available) func aPasswordDecodedFromBytesThatAreNotUTF8IsRefusedWithTheReason(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let decoded = String(decoding: [0x70, 0x77, 0xFF, 0xFE, 0x21, 0x21], as: UTF8.self)  // "pw\xFF\xFE!!"
        await #expect(throws: HealthError.invalidValue(AccountRules.notUTF8)) {
            try await world.store.createUser(NewAccount(name: "bob", password: decoded))
        }
        _ = try await world.user("alice", password: "secret-pw")
        await #expect(throws: HealthError.invalidValue(AccountRules.notUTF8)) {
            try await world.store.authenticate(name: "alice", password: decoded)
        }
        let (alice, _) = try await world.user("carol")
        await #expect(throws: HealthError.invalidValue(AccountRules.notUTF8)) {
            try await world.store.setPassword(decoded, userID: alice.id)
        }
    }

    /// A store made before the rule: its names get their keys, two names that now fold together both
    /// keep working, and new accounts are checked against them.
    @Test func theMigrationKeysExistingNames() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("old.sqlite")
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: "v5: a goal weight")
            try await pool.write { db in
                for (id, name) in [("u1", "élodie"), ("u2", "Élodie"), ("u3", "bob")] {
                    try db.execute(sql: """
                        INSERT INTO users (id, name, password_hash, created_at, modified_at) VALUES (?, ?, 'x', ?, 0)
                        """, arguments: [id, name, id == "u1" ? 1 : 2])
                    try db.execute(sql: "INSERT INTO profiles (user_id) VALUES (?)", arguments: [id])
                }
            }
        }
        let store = try LocalStore(url: url, passwordHasher: .fastForTests)
        #expect(try await store.user(named: "Élodie")?.id == "u2", "the exact name first")
        #expect(try await store.user(named: "E\u{301}LODIE")?.id == "u1", "else the oldest")
        #expect(try await store.user(named: "BOB")?.id == "u3")
        await #expect(throws: HealthError.nameTaken("Bob")) {
            try await store.createUser(NewAccount(name: "Bob", password: "secret-pw"))
        }
    }
}
