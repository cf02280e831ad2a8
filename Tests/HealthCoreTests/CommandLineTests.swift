import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// The `hmon` subcommands, run as the built binary against a store in a temporary folder.
@Suite(.heavy) struct CommandLineTests {
    /// A temporary home for one test: its own XDG folders and database.
    struct Home {
        let folder: TemporaryFolder
        var db: URL { folder.file("data/hmon.sqlite") }
        var environment: [String: String] {
            ["HOME": folder.url.path, "XDG_DATA_HOME": folder.file("xdg-data").path,
             "XDG_CONFIG_HOME": folder.file("xdg-config").path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        }

        init() throws { folder = try TemporaryFolder() }

        /// Runs `hmon ARGS --db <this home's store>` unless told otherwise.
        @discardableResult
        func hmon(_ arguments: [String], stdin: String? = nil, withDB: Bool = true,
                  environment extra: [String: String] = [:]) async throws -> Outcome {
            try await HMonBinary.run(arguments + (withDB ? ["--db", db.path] : []), stdin: stdin,
                               environment: environment.merging(extra) { $1 })
        }

        /// A user with a scale, made through the command line.
        func userWithScale(_ name: String = "alice") async throws {
            let user = try await hmon(["user", "add", name, "--password-stdin"], stdin: "pw-\(name)\n")
            try #require(user.status == 0, "\(user.stderr)")
            let device = try await hmon(["device", "add", "--type", "Withings Device", "--name", "Bathroom scale", "--user", name])
            try #require(device.status == 0, "\(device.stderr) after \(user.stdout); \(listing())")
        }

        /// What the folder holds, for failure messages.
        func listing() -> String {
            let items = FileManager.default.enumerator(atPath: folder.url.path)?.allObjects as? [String] ?? []
            return "\(folder.url.path) holds \(items.sorted())"
        }

        func store() throws -> LocalStore { try LocalStore(url: db, passwordHasher: .fastForTests) }

        /// Everything a user could have written, to compare before and after a refused command.
        func snapshot() async throws -> [String] {
            let store = try store()
            return try await store.read { db in
                try ["users", "profiles", "devices", "messages", "tokens"].map { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map(\.description).joined(separator: "\n")
                }
            }
        }
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    @Test func userAddCreatesAnAccountAndRefusesATakenName() async throws {
        let home = try Home()
        let created = try await home.hmon(["user", "add", "alice", "--full-name", "Alice Example", "--email", "a@example.com",
                                     "--password-stdin"], stdin: "correct horse\n")
        #expect(created.status == 0)
        #expect(created.stdout.contains("created user alice"))
        let user = try await home.store().authenticate(name: "alice", password: "correct horse")
        #expect(user.fullName == "Alice Example")

        let again = try await home.hmon(["user", "add", "alice", "--password-stdin"], stdin: "other pw\n")
        #expect(again.status == 1)
        #expect(again.stderr == "hmon: the user name \"alice\" is taken: choose another\n")
    }

    @Test func clientAddRegistersABridgeForAnExistingUserOnly() async throws {
        let home = try Home()
        _ = try await home.hmon(["user", "add", "alice", "--password-stdin"], stdin: "correct horse\n")
        let unknown = try await home.hmon(["client", "add", "Scale bridge", "--user", "nobody"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "hmon: no user named \"nobody\": create one with `hmon user add nobody`\n")

        let added = try await home.hmon(["client", "add", "Scale bridge", "--user", "alice"])
        #expect(added.status == 0)
        let id = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("client id:") }?
            .split(separator: " ").last.map(String.init))
        let client = try #require(try await home.store().client(id: id))
        let alice = try #require(try await home.store().user(named: "alice"))
        #expect(client.name == "Scale bridge")
        #expect(client.ownerID == alice.id)
    }

    @Test func addWeightRecordsAReadingInTheChosenUnit() async throws {
        let home = try Home()
        try await home.userWithScale()
        let added = try await home.hmon(["add", "weight", "72.4", "--at", "2026-11-20 07:30"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added 72.4 kg to Bathroom scale at 2026-11-20 07:30"))
        let pounds = try await home.hmon(["add", "weight", "160", "--unit", "lb", "--at", "2026-11-21 07:30", "--device", "bathroom scale"])
        #expect(pounds.status == 0, "\(pounds.stderr)")
        // In the unit asked for, with the screens' one decimal: 160 lb − 72.4 kg (159.6 lb) = +0.4 lb.
        #expect(pounds.stdout == "added 160.0 lb to Bathroom scale at 2026-11-21 07:30 (+0.4 lb since 2026-11-20 07:30)\n")

        let store = try home.store()
        let alice = try #require(try await store.user(named: "alice"))
        let scale = try #require(try await store.devices(userID: alice.id).first)
        let weights = try await store.lastMessages(deviceID: scale.id, userID: alice.id, count: 10, field: "weight")
        #expect(weights.count == 2)
        #expect(abs((weights[0].data["weight"]?.number ?? 0) - 72.5747792) < 1e-6)
        #expect(weights[1].data["weight"] == .number(72.4))
        #expect(Day(weights[1].date, in: .current) == Day(year: 2026, month: 11, day: 20))
    }

    /// Issue 28, item 6: `--at` takes the dashboard prompts' words ("yesterday 21:30").
    @Test func addTakesYesterdayAtATime() async throws {
        let home = try Home()
        try await home.userWithScale()
        let added = try await home.hmon(["add", "weight", "72.4", "--at", "yesterday 21:30"])
        #expect(added.status == 0, "\(added.stderr)")
        let yesterday = Day(Date(), in: .current).adding(days: -1)
        #expect(added.stdout.hasPrefix("added 72.4 kg to Bathroom scale at \(yesterday) 21:30"), "\(added.stdout)")
    }

    @Test func addEnergyGoesToTheDeviceThatRecordsIt() async throws {
        let home = try Home()
        try await home.userWithScale()
        // Issue 11: without a food log, the first entry makes one (said on stderr) instead of failing.
        let added = try await home.hmon(["add", "energy", "--consumed", "650", "--comment", "lunch", "--at", "12:30"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stderr == "made the device \"Food log\" (Calorie Tracker) for energy consumed; rename it with `hmon device rename`\n")
        #expect(added.stdout.contains("today: consumed 650 kcal, active 0 kcal, resting and net need height, birth date, sex, weight"))
        let second = try await home.hmon(["add", "energy", "--consumed", "200", "--at", "13:30"])
        #expect(second.status == 0 && second.stderr.isEmpty, "the log made by the first entry is used: \(second.stderr)")
        let store = try home.store()
        let alice = try #require(try await store.user(named: "alice"))
        let devices = try await store.devices(userID: alice.id)
        #expect(devices.filter { $0.dtid == BuiltInDeviceType.calorieTracker.deviceType.id }.map(\.name) == ["Food log"])
        let food = try #require(devices.last)
        let meals = try await store.lastMessages(deviceID: food.id, userID: alice.id, count: 5)
        #expect(meals.map(\.data) == [["calories": .number(200)], ["calories": .number(650), "comments": .text("lunch")]])
    }

    @Test func energyInKilojoulesIsStoredAsRecordedNotRounded() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try await home.hmon(["device", "add", "--type", "Calorie Tracker", "--name", "Food log"]).status == 0)
        #expect(try await home.hmon(["profile", "set", "--energy-unit", "kJ"]).status == 0)
        let added = try await home.hmon(["add", "energy", "--consumed", "2000", "--at", "12:30"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added 2,000 kJ consumed to Food log"))
        let decimal = try await home.hmon(["add", "energy", "--consumed", "650.5", "--unit", "kcal", "--at", "13:30"])
        #expect(decimal.status == 0, "\(decimal.stderr)")

        let store = try home.store()
        let alice = try #require(try await store.user(named: "alice"))
        let food = try #require(try await store.devices(userID: alice.id).first { $0.name == "Food log" })
        let meals = try await store.lastMessages(deviceID: food.id, userID: alice.id, count: 5)
        // 2000 kJ is 478.0114722753346 kcal, not 478.
        #expect(meals.compactMap { $0.data[Field.calories]?.number } == [650.5, 2000 / 4.184])
    }

    @Test func badInputGivesOneLineAndTheRightExitCodeAndWritesNothing() async throws {
        let home = try Home()
        try await home.userWithScale()
        try #require(await home.hmon(["add", "weight", "70"]).status == 0)
        let before = try await home.snapshot()

        let cases: [([String], Int32, String)] = [
            (["add", "weight", "700"], 1, "hmon: weight 700 kg is outside 1–650 kg: check the number and its unit"),
            (["add", "weight", "2000", "--unit", "lb"], 1, "hmon: weight 2000 lb (907.2 kg) is outside 1–650 kg"),
            (["add", "weight", "70", "--device", "toaster"], 1, "hmon: no device \"toaster\": see `hmon device list`"),
            (["add", "weight", "70", "--at", "last week"], 1, "hmon: --at \"last week\" is not a time"),
            (["add", "energy", "--active", "-5"], 1, "hmon: activeEnergy -5 kcal is negative"),
            (["add", "energy"], 2, "hmon: pass one of --consumed AMOUNT or --active AMOUNT"),
            (["add", "weight", "heavy"], 2, "hmon: "),
            (["device", "add", "--type", "Toaster", "--name", "T"], 1, "hmon: no device type \"Toaster\": see `hmon device types`"),
            (["profile", "set", "--height-cm", "1680"], 1, "hmon: height 1680 cm is outside 50–272 cm"),
            (["profile", "set", "--birth-date", "1988-13-01"], 2, "hmon: "),
            (["profile", "set"], 2, "hmon: nothing to change"),
            (["device", "list", "--user", "bob"], 1, "hmon: no user named \"bob\": create one with `hmon user add bob`"),
            (["user", "add", "bad name", "--password-stdin"], 1, "hmon: the user name \"bad name\" may hold only"),
            (["user", "add", "carol", "--password-stdin"], 1, "hmon: the password is shorter than 4 characters"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try await home.hmon(arguments, stdin: "pw\n")
            #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix(message), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(outcome.stderr)")
        }
        #expect(try await home.snapshot() == before)
    }

    @Test func aFileThatIsNotAnHmonDatabaseIsRefused() async throws {
        let home = try Home()
        let notes = home.folder.file("notes.txt")
        try String(repeating: "not a database\n", count: 100).write(to: notes, atomically: true, encoding: .utf8)
        let outcome = try await home.hmon(["device", "list", "--db", notes.path], withDB: false)
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "hmon: \(notes.path) is not an hmon database (not an SQLite file): pass another --db\n")
    }

    @Test func withSeveralAccountsTheSessionOrUserOptionPicksWhoActs() async throws {
        let home = try Home()
        try await home.userWithScale("alice")
        try #require(await home.hmon(["user", "add", "bob", "--password-stdin"], stdin: "pw-bob\n").status == 0)
        let ambiguous = try await home.hmon(["device", "list"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr == "hmon: not signed in: pass --user NAME or sign in with `hmon`\n")

        #expect(try await home.hmon(["device", "list", "--user", "alice"]).stdout.contains("Bathroom scale"))

        // A session saved by the dashboard for this store picks its user.
        let session = try await LocalHealthService(store: home.store()).signIn(name: "bob", password: "pw-bob")
        try SessionStore(paths: HMonPaths(environment: home.environment)).save(session)
        let asBob = try await home.hmon(["device", "list"])
        #expect(asBob.status == 0)
        #expect(asBob.stdout.contains("bob has no devices"))
    }

    @Test func theDatabaseComesFromHMON_DBWhenNoOptionIsGiven() async throws {
        let home = try Home()
        let elsewhere = home.folder.file("elsewhere/store.sqlite")
        let outcome = try await home.hmon(["user", "add", "alice", "--password-stdin"], stdin: "pw-alice\n", withDB: false,
                                    environment: ["HMON_DB": elsewhere.path])
        #expect(outcome.status == 0)
        #expect(FileManager.default.fileExists(atPath: elsewhere.path))
        #expect(!FileManager.default.fileExists(atPath: home.db.path))
    }

    @Test func profileSetChangesOnlyWhatIsGivenAndShowPrintsIt() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try await home.hmon(["profile", "set", "--height-cm", "168", "--birth-date", "1988-4-12", "--sex", "female"]).status == 0,
                "an unpadded date as people type it")
        #expect(try await home.hmon(["profile", "set", "--unit", "lb", "--bmr-formula", "harris-benedict"]).status == 0)
        let store = try home.store()
        let alice = try #require(try await store.user(named: "alice"))
        #expect(try await store.profile(userID: alice.id)
            == Profile(birthDate: Day(iso: "1988-04-12"), sex: .female, heightCm: 168, massUnit: .lb, bmrFormula: .harrisBenedict))
        let shown = try await home.hmon(["profile", "show"])
        #expect(shown.stdout.contains("Height:      5 ft 6 in (168 cm)"), "a pounds profile reads feet and inches")
        #expect(shown.stdout.contains("BMR:         needs weight"))
    }

    @Test func demoBuildsTheDemoStoreOnceAndRebuildsItWithForce() async throws {
        let home = try Home()
        let demo = home.folder.file("demo.sqlite")
        let first = try await home.hmon(["demo", "--db", demo.path], withDB: false)
        #expect(first.status == 0, "\(first.stderr)")
        let store = try LocalStore(url: demo, passwordHasher: .fastForTests)
        let user = try await store.authenticate(name: "demo", password: "demo")
        let count = try await store.messageCount(userID: user.id)
        #expect(count > 3000)
        let second = try await home.hmon(["demo", "--db", demo.path], withDB: false)
        #expect(second.status == 0)
        #expect(second.stdout.contains("pass --force to rebuild it"))
        #expect(try await home.hmon(["add", "weight", "70", "--db", demo.path], withDB: false).status == 0)
        #expect(try await store.messageCount(userID: user.id) == count + 1)
        let scale = try #require(try await store.devices(userID: user.id).first { $0.name == "Bathroom scale" })
        let added = try #require(try await store.lastMessages(deviceID: scale.id, userID: user.id, count: 1).first)
        #expect(added.data["weight"] == .number(70))
        let forced = try await home.hmon(["demo", "--db", demo.path, "--force"], withDB: false)
        #expect(forced.status == 0)
        #expect(try await store.users().map(\.name) == ["demo"])
        // The rebuild draws the demo up to its own moment, so its count may differ from the first
        // build's by a reading that fell due in between (CI once crossed one); what must hold is that
        // the reading added by hand is gone and the six months are back.
        #expect(try await store.lastMessages(deviceID: scale.id, userID: user.id, count: 1).first?.mid != added.mid)
        #expect(try await store.messageCount(userID: user.id) > 3000)
    }

    @Test func aNewPasswordEndsTheOldSessions() async throws {
        let home = try Home()
        try await home.userWithScale()
        let session = try await LocalHealthService(store: home.store()).signIn(name: "alice", password: "pw-alice")
        let changed = try await home.hmon(["user", "password", "alice", "--password-stdin"], stdin: "new-secret\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        let store = try home.store()
        await #expect(throws: HealthError.sessionExpired) { try await LocalHealthService(store: store).resume(session) }
        await #expect(throws: HealthError.wrongPassword) { try await store.authenticate(name: "alice", password: "pw-alice") }
        #expect(try await store.authenticate(name: "alice", password: "new-secret").name == "alice")
        let list = try await home.hmon(["user", "list"])
        #expect(list.stdout.hasPrefix("NAME   FULL NAME  EMAIL  SINCE\nalice"))
    }

    @Test func deviceTypesListsTheBuiltInTypesAndTheirFields() async throws {
        let home = try Home()
        let outcome = try await home.hmon(["device", "types"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("Withings Device  dt29673f0481b4401bb73a622353b96150"))
        #expect(outcome.stdout.contains("weight (kg)"))
        #expect(outcome.stdout.contains("calories (kcal)"))
    }
}

/// The `hmon` executable of this build, next to the test bundle (see `BuiltProducts`).
enum HMonBinary {
    static func url() throws -> URL {
        try BuiltHMon.url()
    }

    static func run(_ arguments: [String], stdin: String?, environment: [String: String]) async throws -> CommandLineTests.Outcome {
        let finished = try await BuiltHMon.run(arguments, stdin: stdin ?? "", environment: environment)
        return .init(status: finished.status, stdout: finished.output, stderr: finished.errors)
    }
}

/// `hmon device rename` and `hmon device delete` as people run them (issue 28, item 6).
@Suite(.heavy) struct DeviceCommandTests {
    typealias Home = CommandLineTests.Home

    @Test func aDeviceIsRenamedAndDeletedWithItsReadingsOnlyWhenSaidSo() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try await home.hmon(["add", "weight", "72.4"]).status == 0)
        let renamed = try await home.hmon(["device", "rename", "bathroom SCALE", "Hall scale"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout == "renamed Bathroom scale to Hall scale\n")
        #expect(try await home.hmon(["device", "list"]).stdout.contains("Hall scale"))

        // No terminal to ask on, and no --yes: kept, saying how many readings it holds.
        let kept = try await home.hmon(["device", "delete", "Hall scale"])
        #expect(kept.status == 1)
        #expect(kept.stderr.contains("Hall scale has 1 readings: pass --yes to delete them with it"), "\(kept.stderr)")
        #expect(try await home.hmon(["reading", "list"]).stdout.contains("72.4"))
        let deleted = try await home.hmon(["device", "delete", "Hall scale", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted Hall scale and its 1 readings\n")
        #expect(!(try await home.hmon(["device", "list"]).stdout.contains("Hall scale")))
        let unknown = try await home.hmon(["device", "delete", "Nothing"])
        #expect(unknown.status == 1)
    }
}
