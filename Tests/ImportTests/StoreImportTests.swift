import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage
@testable import PostgresStorage

/// Importing into a real store: devices, idempotence, all or nothing, the profile.
@Suite struct StoreImportTests {
    /// A fresh store with one account: an SQLite file in a temporary folder, or a PostgreSQL database of its own.
    struct World {
        let folder: TempFolder
        let store: any HealthStore
        let user: User

        init(_ engine: StoreEngine) async throws {
            folder = try TempFolder()
            store = switch engine {
            case .sqlite: try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
            case .postgres: try await PostgresStore.open(try PostgresLocation(try await TestPostgres.newDatabase()),
                                                         passwordHasher: .fastForTests, maximumConnections: 2)
            }
            user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        }

        func importFile(_ url: URL, dryRun: Bool = false) async throws -> ImportResult {
            try await store.importFile(url, userID: user.id, dryRun: dryRun, timeZone: TimeZone(identifier: "UTC")!, now: Date(),
                                       progress: nil)
        }

        func importExport(_ url: URL) async throws -> ImportResult {
            try await store.importExport(url, userID: user.id, dryRun: false, now: Date())
        }

        func messageCount() async throws -> Int { try await store.messageCount(userID: user.id) }

        func deviceNames() async throws -> [String: String] {
            let types = Dictionary(uniqueKeysWithValues: try await store.deviceTypes().map { ($0.id, $0.name) })
            return Dictionary(uniqueKeysWithValues: try await store.devices(userID: user.id).map { ($0.name, types[$0.dtid]!) })
        }
    }

    static func weights(_ days: some Sequence<Int>) -> String {
        AppleHealthXML.document(days.map { day in
            AppleHealthXML.record("BodyMass", "\(70 + Double(day) / 10)", unit: "kg",
                                  at: String(format: "2024-01-%02d 07:15:00 +0100", day), source: "Withings")
        }.joined(separator: "\n"))
    }

    @Test(arguments: StoreEngine.available) func weighInsOfEverySourceLandOnOneScaleAndOtherReadingsOnDevicesNamedAfterTheirSource(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let result = try await world.importFile(try world.folder.write("export.xml", AppleHealthReadingTests.mixedExport))

        #expect(result.tally.addedTotal == 15)
        #expect(result.tally.added[.weight] == 2)
        #expect(result.tally.added[.dietaryEnergy] == 2)
        #expect(try await world.messageCount() == 15)
        // One weight history: no scale per source, and no scale holding only the Health app's heights.
        #expect(try await world.deviceNames() == [
            "Scale": "Scale",
            "MyFitnessPal": "Calorie Tracker",
            "Apple Watch": "Activity Tracker",
            // The HRV record whose two beats were refused, kept with the reason.
            "Apple Watch (HRV Meter)": "HRV Meter",
        ])
        let scale = try #require(try await world.store.devices(userID: world.user.id).first { $0.name == "Scale" })
        let onScale = try await world.store.lastMessages(deviceID: scale.id, userID: world.user.id, count: 100)
        // Each reading keeps where it came from.
        #expect(Set(onScale.compactMap { $0.data[Field.source]?.textValue }) == ["Withings", "Jörg's iPhone", "Health"])
        #expect(result.tally.addedByDevice.values.reduce(0, +) == 15)
        #expect(result.tally.addedByDevice["Scale"] == onScale.count)
        let watch = try #require(try await world.store.devices(userID: world.user.id).first { $0.name == "Apple Watch" })
        let latest = try await world.store.lastMessages(deviceID: watch.id, userID: world.user.id, count: 10)
        #expect(Set(latest.compactMap { $0.data[Field.heartRateVariabilitySDNN]?.number }) == [43.2])
        #expect(Set(latest.compactMap { $0.data[Field.basalEnergy]?.number }) == [1.1])
    }

    @Test(arguments: StoreEngine.available) func aBeatListsMeasurementLandsOnTheSourcesHRVMeterOnce(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let xml = AppleHealthXML.document(BeatListXML.record(
            start: "2024-01-03 18:14:47 +0100", end: "2024-01-03 18:15:47 +0100",
            children: BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: 18 * 3600 + 14 * 60 + 48, .twelveHour)))
        let file = try world.folder.write("export.xml", xml)
        let first = try await world.importFile(file)
        #expect(first.tally.added == [.heartRateVariability: 1, .heartRateVariabilityFromBeats: 1])
        #expect(try await world.deviceNames() == ["Apple Watch": "Activity Tracker", "Apple Watch (HRV Meter)": "HRV Meter"])
        let meter = try #require(try await world.store.devices(userID: world.user.id).first { $0.name == "Apple Watch (HRV Meter)" })
        let stored = try await world.store.lastMessages(deviceID: meter.id, userID: world.user.id, count: 10)
        #expect(stored.count == 1)
        #expect(stored.first?.data[Field.rmssd] == .number(100))
        #expect(stored.first?.data[Field.sdnn] == .number(50.6))
        #expect(stored.first?.data[Field.heartRate] == .number(71))
        #expect(stored.first?.data[Field.source] == .text("beats"), "the HRV screen names it as computed from beats")
        #expect(stored.first?.ts == ms("2024-01-03T17:14:47Z"))

        let again = try await world.importFile(file)
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThere == [.heartRateVariability: 1, .heartRateVariabilityFromBeats: 1])
    }

    @Test(arguments: StoreEngine.available) func storedValuesFollowTheManifests(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        _ = try await world.importFile(try world.folder.write("export.xml", AppleHealthReadingTests.mixedExport))
        let devices = try await world.store.devices(userID: world.user.id)
        let food = try #require(devices.first { $0.name == "MyFitnessPal" })
        let meals = try await world.store.lastMessages(deviceID: food.id, userID: world.user.id, count: 10)
        // Calorie Tracker's calories are kcal as recorded; 2092 kJ is 500 kcal.
        #expect(meals.compactMap { $0.data[Field.calories]?.number }.sorted() == [500, 650])
        let scale = try #require(devices.first { $0.name == "Scale" })
        let heights = try await world.store.lastMessages(deviceID: scale.id, userID: world.user.id, count: 10, field: Field.height)
        // The Withings manifest keeps height in metres.
        #expect(heights.compactMap { $0.data[Field.height]?.number }.map { ($0 * 1000).rounded() / 1000 }.sorted() == [1.7, 1.753])
    }

    @Test(arguments: StoreEngine.available) func weighInsJoinTheScaleThePersonHasAndEarlierImportsStayRecognized(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let bathroom = try await world.store.addDevice(name: "Bathroom scale", typeID: BuiltInDeviceType.withings.deviceType.id,
                                                       userID: world.user.id)
        let xml = AppleHealthXML.document([
            AppleHealthXML.record("BodyMass", "70", unit: "kg", at: "2024-01-02 07:00:00 +0000", source: "Withings"),
            AppleHealthXML.record("BodyMass", "70.4", unit: "kg", at: "2024-01-03 07:00:00 +0000", source: "Health"),
            AppleHealthXML.record("Height", "170", unit: "cm", at: "2024-01-02 07:00:00 +0000", source: "Health"),
        ].joined(separator: "\n"))
        let result = try await world.importFile(try world.folder.write("export.xml", xml))
        #expect(result.tally.addedByDevice == ["Bathroom scale": 3])
        #expect(try await world.deviceNames() == ["Bathroom scale": "Withings Device"])
        let weights = try await world.store.lastMessages(deviceID: bathroom.id, userID: world.user.id, count: 10, field: Field.weight)
        #expect(weights.map { $0.data[Field.source] } == [.text("Health"), .text("Withings")])
        // The ids do not depend on the device nor on the kept source: the same file adds nothing again.
        #expect(try await world.importFile(try world.folder.write("again.xml", xml)).tally.alreadyThere[.weight] == 2)
    }

    @Test(arguments: StoreEngine.available) func importingTheSameFileAgainAddsNothing(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let file = try world.folder.write("export.xml", AppleHealthReadingTests.mixedExport)
        _ = try await world.importFile(file)
        let again = try await world.importFile(file)

        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThereTotal == 15)
        #expect(try await world.messageCount() == 15)
        #expect(try await world.store.devices(userID: world.user.id).count == 4)
    }

    @Test(arguments: StoreEngine.available) func anOverlappingExportAddsOnlyWhatIsNew(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        _ = try await world.importFile(try world.folder.write("last-year.xml", Self.weights(1...10)))
        let result = try await world.importFile(try world.folder.write("this-year.xml", Self.weights(6...15)))

        #expect(result.tally.added[.weight] == 5)
        #expect(result.tally.alreadyThere[.weight] == 5)
        #expect(try await world.messageCount() == 15)
    }

    @Test(arguments: StoreEngine.available) func aMalformedFileLeavesTheStoreAsItWas(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        _ = try await world.importFile(try world.folder.write("good.xml", Self.weights(1...3)))
        var records = (4...28).map { day in
            AppleHealthXML.record("BodyMass", "71", unit: "kg", at: String(format: "2024-01-%02d 07:15:00 +0100", day), source: "Withings")
        }
        records[20] = records[20].replacingOccurrences(of: "value=\"71\"", with: "value=\"71")
        records.insert(AppleHealthXML.record("ActiveEnergyBurned", "12", unit: "kcal", at: "2024-01-03 09:01:00 +0100"), at: 0)
        let file = try world.folder.write("broken.xml", AppleHealthXML.document(me: AppleHealthReadingTests.me, records.joined(separator: "\n")))

        await #expect(throws: ImportError.self) { try await world.importFile(file) }
        #expect(try await world.messageCount() == 3)
        #expect(try await world.deviceNames() == ["Scale": "Scale"])
        #expect(try await world.store.profile(userID: world.user.id).birthDate == nil)
    }

    /// The one date rule of every door (`ReadingTime`): an import skips what a push would refuse, 1999
    /// included (the importers' floor was 1970), and counts each reason apart.
    @Test(arguments: StoreEngine.available) func readingsDatedBefore2000OrInTheFutureAreSkippedAndCounted(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let records = [("71", "2024-01-02"), ("72", "2999-01-02"), ("73", "1969-12-30"), ("75", "1999-12-31"), ("74", "2024-01-03")]
            .map { value, day in
                AppleHealthXML.record("BodyMass", value, unit: "kg", at: "\(day) 07:15:00 +0100", source: "Withings")
            }
        let result = try await world.importFile(try world.folder.write("export.xml", AppleHealthXML.document(records.joined(separator: "\n"))))

        #expect(result.tally.added[.weight] == 2)
        #expect(result.tally.skippedReasons == ["reading dated before 2000": 2, "reading dated more than a day in the future": 1])
        #expect(try await world.messageCount() == 2)
    }

    /// The import turns SQLite's foreign-key checks off for its own transaction only.
    @Test func anImportLeavesTheStoreCheckingForeignKeysWhetherItSucceedsOrFails() async throws {
        let world = try await World(.sqlite)
        let store = try #require(world.store as? LocalStore)
        func checksForeignKeys() throws -> Bool? {
            try store.writer.writeWithoutTransaction { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") }
        }
        _ = try await world.importFile(try world.folder.write("good.xml", Self.weights(1...3)))
        #expect(try checksForeignKeys() == true)

        let broken = Self.weights(4...6).replacingOccurrences(of: "value=\"70.5\"", with: "value=\"70.5")
        await #expect(throws: ImportError.self) { try await world.importFile(try world.folder.write("broken.xml", broken)) }
        #expect(try checksForeignKeys() == true)
        // A reading on a device that does not exist is still refused.
        #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                try db.execute(sql: "INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data) VALUES ('m', 'no-such-device', 't', ?, 0, 0, 1, '{}')",
                               arguments: [world.user.id])
            }
        }
    }

    @Test(arguments: StoreEngine.available) func aCSVWithABadRowKeepsNothingOfIt(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let file = try world.folder.write("weight.csv", """
        Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments
        "2024-01-15 07:30:12",80.5,,,,,
        "2024-01-16 07:30:12",7o.2,,,,,

        """)
        await #expect(throws: ImportError.self) { try await world.importFile(file) }
        #expect(try await world.messageCount() == 0)
        #expect(try await world.store.devices(userID: world.user.id).isEmpty)
    }

    @Test(arguments: StoreEngine.available) func withingsCSVWeighInsKeepTheirBodyComposition(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let result = try await world.importFile(try world.folder.write("weight.csv", """
        Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments
        "2024-01-15 07:30:12",80,20,3.1,57.2,41.0,

        """))
        #expect(result.tally.added[.weight] == 1)
        let scale = try #require(try await world.store.devices(userID: world.user.id).first)
        #expect(scale.name == "Scale")
        let message = try #require(try await world.store.lastMessages(deviceID: scale.id, userID: world.user.id, count: 1).first)
        #expect(message.data == [Field.weight: .number(80), Field.fatRatio: .number(25), Field.muscleMass: .number(57.2),
                                 Field.source: .text("Withings")])
    }

    @Test(arguments: StoreEngine.available) func theProfileIsFilledFromMeOnlyWhereEmpty(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        var profile = try await world.store.profile(userID: world.user.id)
        profile.sex = .male
        try await world.store.updateProfile(profile, userID: world.user.id)

        let result = try await world.importFile(try world.folder.write("export.xml", AppleHealthReadingTests.mixedExport))

        let after = try await world.store.profile(userID: world.user.id)
        #expect(after.sex == .male, "a sex already set is kept")
        #expect(after.birthDate == Day(year: 1984, month: 7, day: 9))
        #expect(abs((after.heightCm ?? 0) - 175.26) < 1e-9)
        #expect(result.tally.profileFilled == ["date of birth", "height"])
    }

    @Test(arguments: StoreEngine.available) func aDryRunCountsButWritesNothing(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let file = try world.folder.write("export.xml", AppleHealthReadingTests.mixedExport)
        let result = try await world.importFile(file, dryRun: true)

        #expect(result.tally.addedTotal == 15)
        #expect(try await world.messageCount() == 0)
        #expect(try await world.store.devices(userID: world.user.id).isEmpty)
        #expect(try await world.store.profile(userID: world.user.id).birthDate == nil)
    }

    @Test(arguments: StoreEngine.available) func aDryRunCountsWhatTheImportThenAdds(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        _ = try await world.importFile(try world.folder.write("last-year.xml", Self.weights(1...10)))
        // Days 6 to 15, day 15 twice: the file's own duplicate counts as already there, as the import has it.
        let file = try world.folder.write("this-year.xml", Self.weights(Array(6...15) + [15]))

        let dry = try await world.importFile(file, dryRun: true)
        let dryAgain = try await world.importFile(file, dryRun: true)
        #expect(try await world.messageCount() == 10)
        let real = try await world.importFile(file)

        #expect(dry.tally.added[.weight] == 5)
        #expect(dry.tally.alreadyThere[.weight] == 6)
        #expect(dryAgain.tally.added == dry.tally.added && dryAgain.tally.alreadyThere == dry.tally.alreadyThere)
        #expect(real.tally.added == dry.tally.added && real.tally.alreadyThere == dry.tally.alreadyThere)
        #expect(try await world.messageCount() == 15)
    }

    @Test(arguments: StoreEngine.available) func recordedRestingEnergyReplacesTheEstimateForThatDay(_ engine: StoreEngine) async throws {
        let world = try await World(engine)
        let file = try world.folder.write("export.xml", AppleHealthXML.document(me: AppleHealthReadingTests.me, [
            AppleHealthXML.record("BodyMass", "70", unit: "kg", at: "2024-01-02 07:00:00 +0000", source: "Withings"),
            AppleHealthXML.record("Height", "170", unit: "cm", at: "2024-01-02 07:00:00 +0000", source: "Health"),
            AppleHealthXML.record("BasalEnergyBurned", "700", unit: "kcal", at: "2024-01-03 06:00:00 +0000"),
            AppleHealthXML.record("BasalEnergyBurned", "800", unit: "kcal", at: "2024-01-03 18:00:00 +0000"),
            AppleHealthXML.record("ActiveEnergyBurned", "400", unit: "kcal", at: "2024-01-03 17:00:00 +0000"),
            AppleHealthXML.record("DietaryEnergyConsumed", "2000", unit: "Cal", at: "2024-01-03 12:00:00 +0000", source: "MyFitnessPal"),
        ].joined(separator: "\n")))
        _ = try await world.importFile(file)

        let service = LocalHealthService(store: world.store)
        _ = try await service.actingAs(name: "ana")
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let day = Day(year: 2024, month: 1, day: 3)
        let summary = try await service.energySummary(for: day, now: Date(), calendar: utc)
        #expect(summary.restingSource == .recorded)
        #expect(summary.resting == 1500)
        #expect(summary.active == 400)
        #expect(summary.consumed == 2000)
        // The day before has no recorded resting energy: the estimate from the imported profile is used.
        let before = try await service.energySummary(for: day.adding(days: -1), now: Date(), calendar: utc)
        if case .estimated = before.restingSource {} else { Issue.record("expected an estimate, got \(String(describing: before.restingSource))") }
    }
}
