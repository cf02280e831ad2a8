import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage
@testable import PostgresStorage

/// A Fitbit day's energy is one total for the day, whatever the download it came from: a download made at
/// midday, imported, then one made the next morning, leaves the whole day's figures once, not both beside
/// each other (the figures worked by hand as in `FitbitTakeoutImportTests`). On both engines.
@Suite struct FitbitSpanTotalsTests {
    static func store(_ engine: StoreEngine, in folder: TempFolder) async throws -> any HealthStore {
        switch engine {
        case .sqlite:
            return try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        case .postgres:
            let url = try await TestPostgres.newDatabase()
            return try await PostgresStore.open(try PostgresLocation(url), passwordHasher: .fastForTests, maximumConnections: 2)
        }
    }

    /// The fixture's download with 14 March's minute file cut after 08:02, as a download made then holds it.
    static func morningDownload() throws -> [(String, String)] {
        try FitbitTakeoutImportTests.fixtureFiles().map { path, text in
            guard path.contains("calories-") else { return (path, text) }
            return (path, #"[{"dateTime":"03/14/26 08:00:00","value":"1.2"},{"dateTime":"03/14/26 08:01:00","value":"1.2"},"#
                + #"{"dateTime":"03/14/26 08:02:00","value":"5.7"}]"#)
        }
    }

    @Test(arguments: StoreEngine.available)
    func aLaterDownloadOfTheSameDayReplacesItsEnergyInsteadOfAddingToIt(_ engine: StoreEngine) async throws {
        let folder = try TempFolder()
        let store = try await Self.store(engine, in: folder)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        let service = LocalHealthService(store: store, userID: user.id)
        func energy(_ kind: ReadingKind) async throws -> [Double?] {
            try await service.readings(ReadingsQuery(field: kind.field, order: .asc, limit: 10)).map { $0.data[kind.field]?.number }
        }

        let morning = try folder.zip("takeout-20260314T071000Z-001.zip", entries: try Self.morningDownload())
        let first = try await store.importFile(morning, userID: user.id, timeZone: FitbitTakeoutImportTests.utc)
        #expect(first.tally.added[.activeEnergy] == 1)
        // Three minutes, the lowest 1.2: resting 3.6, active 8.1 − 3.6 = 4.5.
        #expect(try await energy(.basalEnergy) == [3.6])
        #expect(try await energy(.activeEnergy) == [4.5])

        let whole = try await store.importFile(FitbitTakeoutImportTests.fixture, userID: user.id,
                                               timeZone: FitbitTakeoutImportTests.utc)
        #expect(whole.tally.alreadyThere[.weight] == 3, "the weigh-ins were in the morning's download too")
        // The whole day, once: resting 4.4, active 4.8; and the 15th's first minute.
        #expect(try await energy(.basalEnergy) == [4.4, 1.3])
        #expect(try await energy(.activeEnergy) == [4.8, 0])
        let day = Day(year: 2026, month: 3, day: 14)
        var berlin = Calendar(identifier: .gregorian)
        berlin.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let summary = try await service.energySummary(for: day, now: Date(), calendar: berlin)
        #expect(abs(summary.active - 4.8) < 1e-9, "not 4.5 + 4.8")
        #expect(abs((summary.resting ?? 0) - 4.4) < 1e-9, "not 3.6 + 4.4")

        let again = try await store.importFile(FitbitTakeoutImportTests.fixture, userID: user.id,
                                               timeZone: FitbitTakeoutImportTests.utc)
        #expect(again.tally.addedTotal == 0, "the same download again changes nothing")
        #expect(try await energy(.activeEnergy) == [4.8, 0])
    }

    /// The same rule for a day total of a kind kept only in the reading's JSON (steps, resting heart rate): a
    /// Garmin watch's monitoring file of a day, then a later one of the same day, leave the later figures once.
    @Test(arguments: StoreEngine.available)
    func aLaterMonitoringFileReplacesTheDaysStepsAndRestingHeartRate(_ engine: StoreEngine) async throws {
        let folder = try TempFolder()
        let store = try await Self.store(engine, in: folder)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        let service = LocalHealthService(store: store, userID: user.id)
        _ = try await store.importFile(GarminFITImportTests.fixture, userID: user.id, timeZone: FitbitTakeoutImportTests.utc)
        _ = try await store.importFile(GarminFITImportTests.laterFixture, userID: user.id, timeZone: FitbitTakeoutImportTests.utc)
        for (kind, values) in [(ReadingKind.steps, [9_100.0, 4_200]), (.restingHeartRate, [56, 54])] as [(ReadingKind, [Double?])] {
            let stored = try await service.readings(ReadingsQuery(field: kind.field, order: .asc, limit: 10)).map { $0.data[kind.field]?.number }
            #expect(stored == values, "\(kind.name) on \(engine)")
        }
    }
}

