import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

@Suite(.heavy) struct ChangeTokenTests {
    @Test func aReadingWrittenThroughAnotherConnectionChangesTheTokenAndShows() async throws {
        let world = try TestWorld()
        let (user, dashboard) = try await world.user()
        let scale = try await world.device(.withings, named: "Bathroom scale", for: dashboard)
        let quiet = try await dashboard.changeToken()
        #expect(try await dashboard.changeToken() == quiet)

        // The command line opens the same file on its own.
        let commandLine = try LocalStore(url: world.databaseURL, passwordHasher: .fastForTests)
        try await commandLine.post(NewMessage(sdid: scale.id, data: ["weight": .number(71.5)]), userID: user.id)

        let afterOther = try await dashboard.changeToken()
        #expect(afterOther != quiet)
        let last = try await dashboard.lastMessages(device: scale.id, count: 1, field: "weight")
        #expect(last.first?.data["weight"] == .number(71.5))
        #expect(try await dashboard.changeToken() == afterOther)
    }

    @Test func aWriteOfThisProcessChangesTheTokenToo() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Bathroom scale", for: service)
        var tokens: Set<Int64?> = [try await service.changeToken()]
        for weight in [70.0, 70.2, 70.4] {
            try await service.post(NewMessage(sdid: scale.id, data: ["weight": .number(weight)]))
            tokens.insert(try await service.changeToken())
        }
        #expect(tokens.count == 4)
    }

    /// The sqlite3 shell on PATH: a process that is not hmon at all writes the file.
    static let sqliteShell = InstalledTool.path(of: "sqlite3")

    // Without the shell there is no other process to write: skipped, with the reason in the test report.
    @Test(.enabled(if: sqliteShell != nil, "needs the sqlite3 shell: apt-get install sqlite3"))
    func aWriteFromAnotherProcessChangesTheToken() async throws {
        let sqlite = try #require(Self.sqliteShell)
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let before = try await service.changeToken()
        let finished = try await SpawnedProcess.running(sqlite, [world.databaseURL.path,
                                                       "PRAGMA busy_timeout = 5000; UPDATE users SET full_name = 'Alice B';"])
        #expect(finished.status == 0, "\(finished.errors)")
        #expect(try await service.changeToken() != before)
        #expect(try await service.currentUser().fullName == "Alice B")
    }
}
