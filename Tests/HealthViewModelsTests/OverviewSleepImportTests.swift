import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// An Apple Health export with a night of sleep stages, from the watch and the phone over the same hours,
/// shows that night's time asleep on the overview, counted once; importing it again adds nothing.
@MainActor
struct OverviewSleepImportTests {
    static func record(_ value: String, _ start: String, _ end: String, _ source: String) -> String {
        #"<Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="\#(source)" startDate="2026-11-\#(start) +0100" "#
            + #"endDate="2026-11-\#(end) +0100" value="HKCategoryValueSleepAnalysis\#(value)"/>"#
    }

    /// `SleepNightsTests.watchAndPhone`'s night, to the morning of Nov 20: 450 min asleep, not 830.
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_GB">
        \(record("InBed", "19 22:45:00", "20 06:45:00", "iPhone"))
        \(record("AsleepCore", "19 23:00:00", "20 01:00:00", "Apple Watch"))
        \(record("AsleepDeep", "20 01:00:00", "20 02:00:00", "Apple Watch"))
        \(record("AsleepREM", "20 02:00:00", "20 03:00:00", "Apple Watch"))
        \(record("Awake", "20 03:00:00", "20 03:10:00", "Apple Watch"))
        \(record("AsleepCore", "20 03:10:00", "20 06:30:00", "Apple Watch"))
        \(record("AsleepUnspecified", "19 23:30:00", "20 06:00:00", "iPhone"))
        </HealthData>
        """

    @Test(arguments: ServiceFactory.all)
    func lastNightsSleepFromAnExportIsOnTheOverviewOnce(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let user = try await service.currentUser()
            let file = world.folder.appendingPathComponent("export.xml")
            try Data(Self.export.utf8).write(to: file)
            let store = try await world.store()
            let berlin = TimeZone(identifier: "Europe/Berlin")!
            for _ in 0..<2 {
                _ = try await store.importFile(file, userID: user.id, dryRun: false, timeZone: berlin, now: ViewModelWorld.now,
                                               progress: nil)
            }
            let model = OverviewModel(service: service, clock: world.clock)
            await model.refresh().complete()
            let sleep = try require(model.rows.first { $0.label == "Sleep" }, "a sleep line")
            #expect(sleep.figure == "7 h 30")
            #expect(sleep.detail == "deep 1h00 REM 1h00")
            #expect(sleep.values.compactMap { $0 } == [450], "one night, on the day it ended")
        }
    }
}
