import Foundation
import TestSupport
import Testing

/// `hmon import` of Gadgetbridge's database as a person runs it: the built binary, its summary and exit code.
@Suite(.heavy) struct GadgetbridgeCommandTests {
    @Test func theSummaryNamesTheTablesReadAndNotReadAndABadFileKeepsNothing() async throws {
        let folder = try TempFolder()
        let db = try await ImportCommandTests.store(in: folder)
        let file = try GadgetbridgeImportTests.copy("gadgetbridge-fixture.db", to: folder, as: "Gadgetbridge")

        let first = try await ImportCommandTests.run(["import", file.path, "--db", db, "--user", "ana"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Gadgetbridge: Gadgetbridge database, read in "))
        let facts = ImportCommandTests.facts(first.stdout)
        #expect(facts == [
            "added 12 readings: 3 weights, 1 active energy, 2 step counts, 2 resting heart rates, 1 HRV reading (RMSSD), 2 nights asleep, 1 SpO2 reading",
            "by device: Forerunner 255 6, Scale 3, Ana's band 2, Forerunner 255 (HRV Meter) 1",
            "skipped 2: 1 SpO2 reading outside 50–100 %, 1 weight outside 1–650 kg",
            "not kept: 6 other records and elements (heart rate a minute (Gadgetbridge) 6)",
            // Empty tables are not named: only what holds rows.
            "tables read: DEVICE (3 rows), GARMIN_ACTIVITY_SAMPLE (5 rows), GARMIN_HEART_RATE_RESTING_SAMPLE (2 rows), "
                + "GARMIN_HRV_SUMMARY_SAMPLE (1 row), GARMIN_SLEEP_STAGE_SAMPLE (8 rows), GARMIN_SPO2_SAMPLE (2 rows), "
                + "MI_SCALE_WEIGHT_SAMPLE (4 rows), XIAOMI_ACTIVITY_SAMPLE (3 rows), XIAOMI_SLEEP_STAGE_SAMPLE (7 rows), "
                + "XIAOMI_SLEEP_TIME_SAMPLE (1 row)",
            "tables not read: DEVICE_ATTRIBUTES (1 row), GARMIN_STRESS_SAMPLE (3 rows), PEBBLE_HEALTH_ACTIVITY_SAMPLE (2 rows), USER (1 row)",
        ], "\(facts)")

        let again = try await ImportCommandTests.run(["import", file.path, "--db", db, "--user", "ana", "--json"])
        #expect(again.status == 0)
        #expect(again.stdout.contains(#""added":{"byKind":{},"total":0}"#), "\(again.stdout)")

        let broken = try GadgetbridgeImportTests.copy("gadgetbridge-missing-column.db", to: folder, as: "Broken.db")
        let refused = try await ImportCommandTests.run(["import", broken.path, "--db", db, "--user", "ana"])
        #expect(refused.status != 0)
        #expect(refused.stderr == "hmon: Broken.db: Gadgetbridge's table MI_SCALE_WEIGHT_SAMPLE has no column WEIGHT_KG, which hmon reads: "
                + "the database is from a Gadgetbridge hmon does not know, or was changed by hand; export it again from a current "
                + "Gadgetbridge, or report the Gadgetbridge version; nothing was imported\n")
        let after = try await ImportCommandTests.run(["import", file.path, "--db", db, "--user", "ana", "--json"])
        #expect(after.stdout.contains(#""alreadyThere":{"byKind":{"#) && after.stdout.contains(#""total":12}"#),
                "the refused file added nothing beside the first import's 12: \(after.stdout)")
    }
}
