import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
import HMonCommandLine
@testable import SQLiteStorage

/// Which store a command opens and whom it acts for, decided in one place for every command.
@Suite struct StoreOpenerTests {
    static func environment(_ folder: TemporaryFolder, _ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": folder.url.path, "XDG_DATA_HOME": folder.file("data").path, "XDG_CONFIG_HOME": folder.file("config").path]
            .merging(extra) { $1 }
    }

    @Test func theDbOptionBeatsTheDemoStoreWhichBeatsHMON_DBWhichBeatsTheDefault() throws {
        let folder = try TemporaryFolder()
        let env = Self.environment(folder, ["HMON_DB": "~/from-env.sqlite"])
        #expect(StoreOpener(db: "~/mine.sqlite", demo: true, environment: env).databaseURL.path == folder.file("mine.sqlite").path)
        #expect(StoreOpener(demo: true, environment: env).databaseURL.path == folder.file("data/hmon/demo.sqlite").path)
        #expect(StoreOpener(environment: env).databaseURL.path == folder.file("from-env.sqlite").path)
        #expect(StoreOpener(environment: Self.environment(folder)).databaseURL.path == folder.file("data/hmon/hmon.sqlite").path)
    }

    @Test func theOnlyAccountActsUnlessUserNamesAnother() async throws {
        let folder = try TemporaryFolder()
        let opener = StoreOpener(db: folder.file("hmon.sqlite").path, environment: Self.environment(folder))
        let store = try LocalStore(url: opener.databaseURL, passwordHasher: .fastForTests)
        let service = LocalHealthService(store: store)
        let none = await #expect(throws: CommandError.self) { try await opener.actingUser(on: service) }
        #expect(none?.message == "\(store.path) has no account yet: create one with `hmon user add NAME`, or try --demo")

        _ = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        #expect(try await opener.actingUser(on: service).name == "alice")

        _ = try await store.createUser(NewAccount(name: "bob", password: "secret-pw"))
        let several = await #expect(throws: CommandError.self) { try await opener.actingUser(on: service) }
        #expect(several?.message == "not signed in: pass --user NAME or sign in with `hmon`")
        var asBob = opener
        asBob.user = "bob"
        #expect(try await asBob.actingUser(on: service).name == "bob")
    }

    @Test func aSessionSavedForThisStorePicksItsUser() async throws {
        let folder = try TemporaryFolder()
        let opener = StoreOpener(db: folder.file("hmon.sqlite").path, environment: Self.environment(folder))
        let store = try LocalStore(url: opener.databaseURL, passwordHasher: .fastForTests)
        _ = try await store.createUser(NewAccount(name: "alice", password: "pw-alice"))
        _ = try await store.createUser(NewAccount(name: "bob", password: "pw-bob"))
        let session = try await LocalHealthService(store: store).signIn(name: "bob", password: "pw-bob")
        try SessionStore(paths: opener.paths).save(session)
        #expect(try await opener.actingUser(on: LocalHealthService(store: store)).name == "bob")
    }

    @Test func theDemoStoreIsFilledOnFirstUseAndActsAsTheDemoUser() async throws {
        let folder = try TemporaryFolder()
        let opener = StoreOpener(demo: true, environment: Self.environment(folder, ["HMON_SERVER": "http://127.0.0.1:9"]))
        #expect(opener.serverAddress == nil, "--demo never goes to a server")
        let store = try await opener.openDashboardStore(now: Date(), calendar: Calendar(identifier: .gregorian))
        #expect(store.location == folder.file("data/hmon/demo.sqlite").standardizedFileURL.path)
        #expect(try await opener.actingUser(on: LocalHealthService(store: store)).name == DemoData.userName)
    }
}

@Suite struct StoreOpenerURLTests {
    @Test func aPostgresURLInDbOrHMONDBNamesAPostgreSQLStoreAndAPathDoesNot() throws {
        let opener = StoreOpener(db: "postgres://clinic@db.example.org:6543/health", environment: ["PGPASSWORD": "pw"])
        let location = try #require(try opener.postgresLocation())
        #expect(location.description == "postgres://clinic@db.example.org:6543/health")
        #expect(location.password == "pw")
        let fromEnvironment = StoreOpener(environment: ["HMON_DB": "postgresql://hmon@localhost/hmon", "HOME": "/nowhere"])
        #expect(try fromEnvironment.postgresLocation()?.database == "hmon")
        #expect(try StoreOpener(db: "/home/me/hmon.sqlite", environment: [:]).postgresLocation() == nil)
        // --demo is always the local demo file, whatever HMON_DB says.
        #expect(try StoreOpener(demo: true, environment: ["HMON_DB": "postgres://hmon@localhost/hmon", "HOME": "/nowhere"])
            .postgresLocation() == nil)
    }

    @Test func aMalformedURLIsAUsageErrorThatNeverShowsThePassword() {
        let error = #expect(throws: CommandError.self) {
            try StoreOpener(db: "postgres://clinic:hunter2@db.example.org", environment: [:]).postgresLocation()
        }
        #expect(error?.message.contains("names no database") == true)
        #expect(error?.message.contains("hunter2") == false)
    }
}
