import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel
@testable import SQLiteStorage

/// Imported food energy is kept as the export recorded it, and the importer, the service and the
/// command line accept, convert and refuse the same entries the same way (`ReadingRules`).
@Suite struct EnergyAsRecordedImportTests {
    static func meal(_ value: String, _ unit: String, at time: String) -> String {
        AppleHealthXML.record("DietaryEnergyConsumed", value, unit: unit, at: "2024-01-03 \(time) +0000", source: "MyFitnessPal")
    }

    @Test func aDayOfKilojouleEntriesSumsToTheExportsOwnTotal() async throws {
        let folder = try TempFolder()
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        let file = try folder.write("export.xml", AppleHealthXML.document([
            Self.meal("837", "kJ", at: "08:00:00"), Self.meal("630", "kJ", at: "10:30:00"),
            Self.meal("2510", "kJ", at: "13:00:00"), Self.meal("2212", "kJ", at: "19:15:00"),
        ].joined(separator: "\n")))
        let result = try await store.importFile(file, userID: user.id, timeZone: TimeZone(identifier: "UTC")!)
        #expect(result.tally.added[.dietaryEnergy] == 4)

        // 837 + 630 + 2510 + 2212 = 6189 kJ = 6189 / 4.184 = 1479.2065 kcal. Rounded meal by meal
        // (200 + 151 + 600 + 529) it came to 1480.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let service = LocalHealthService(store: store, userID: user.id)
        let day = Day(year: 2024, month: 1, day: 3)
        let summary = try await service.energySummary(for: day, now: day.adding(days: 1).start(in: utc), calendar: utc)
        #expect(abs(summary.consumed - 1479.2065009560229) < 1e-9)
    }

    @Test func aMealKeepsTheIdItHadWhenFoodLogsKeptWholeKilocalories() throws {
        // An export imported before food energy was kept as recorded stored {"calories":650} for 650.4 kcal;
        // importing it again must find those readings, not add them a second time.
        let reading = ImportedReading(kind: .dietaryEnergy, source: "MyFitnessPal", timestamp: 1_704_285_000_000, value: 650.4)
        let json = try StoredReading.json(reading)
        #expect(json == "{\"calories\":650.4}")
        var wholeKcal = reading
        wholeKcal.value = 650
        #expect(StoredReading.mid(userID: "u1", reading: reading, json: json)
                == StoredReading.mid(userID: "u1", reading: wholeKcal, json: "{\"calories\":650}"))
    }

    /// The same four entries through the importer, `LocalHealthService.post` and `hmon add energy`.
    @Test func theImporterTheServiceAndTheCommandLineStoreTheSameEntriesAlike() async throws {
        let entries: [(amount: Double, unit: EnergyUnit)] = [(650.5, .kcal), (2510, .kJ), (-5, .kcal), (50_000, .kcal)]
        // Kept as recorded in kcal, smallest first: 2510 / 4.184 = 599.904397705545, and 650.5; -5 and 50,000 refused.
        let expected: [Double] = [2510 / 4.184, 650.5]

        func world(_ name: String) async throws -> (TempFolder, LocalStore, User, Device) {
            let folder = try TempFolder()
            let store = try LocalStore(url: folder.url.appendingPathComponent("\(name).sqlite"), passwordHasher: .fastForTests)
            let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
            let food = try await store.addDevice(name: "MyFitnessPal", typeID: BuiltInDeviceType.calorieTracker.deviceType.id,
                                                 userID: user.id)
            return (folder, store, user, food)
        }
        func stored(_ store: LocalStore, _ user: User, _ food: Device) async throws -> [Double] {
            try await store.lastMessages(deviceID: food.id, userID: user.id, count: 10, field: Field.calories)
                .compactMap { $0.data[Field.calories]?.number }.sorted()
        }

        let (importFolder, importStore, importUser, importFood) = try await world("import")
        let file = try importFolder.write("export.xml", AppleHealthXML.document(entries.enumerated().map { index, entry in
            Self.meal(Formatting.plain(entry.amount), entry.unit == .kJ ? "kJ" : "Cal", at: "1\(index):00:00")
        }.joined(separator: "\n")))
        let result = try await importStore.importFile(file, userID: importUser.id, timeZone: TimeZone(identifier: "UTC")!)
        #expect(result.tally.skippedReasonsTotal == 2)
        #expect(try await stored(importStore, importUser, importFood) == expected)

        let (serviceFolder, serviceStore, serviceUser, serviceFood) = try await world("service")
        let service = LocalHealthService(store: serviceStore, userID: serviceUser.id)
        var serviceRefusals = 0
        for entry in entries {
            do {
                try await service.post(NewMessage(sdid: serviceFood.id, data: [Field.calories: .number(entry.unit.toKcal(entry.amount))]))
            } catch is HealthError {
                serviceRefusals += 1
            }
        }
        #expect(serviceRefusals == 2)
        #expect(try await stored(serviceStore, serviceUser, serviceFood) == expected)

        let (lineFolder, lineStore, lineUser, lineFood) = try await world("line")
        var lineRefusals = 0
        for entry in entries {
            let run = try await ImportCommandTests.run(["add", "energy", "--consumed", Formatting.plain(entry.amount),
                                                  "--unit", entry.unit.rawValue, "--db", lineStore.path, "--user", "ana"])
            if run.status != 0 {
                lineRefusals += 1
                #expect(run.status == 1 && run.stderr.hasPrefix("hmon: calories "), "\(run.stderr)")
            }
        }
        #expect(lineRefusals == 2)
        #expect(try await stored(lineStore, lineUser, lineFood) == expected)
        withExtendedLifetime((importFolder, serviceFolder, lineFolder)) {}  // the stores' files live until here
    }
}

private enum Formatting {
    /// 650.5 → "650.5", 2510 → "2510".
    static func plain(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }
}
