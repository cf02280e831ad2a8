import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// Issue 28, item 2, "HRV that tells the truth", from an Apple Watch export into a real store: Apple's SDNN
/// is a figure of its own beside hmon's beat figures, and a flat beat list is refused, its record kept with
/// the reason, and left out of the insights' daily figures.
@Suite struct AppleWatchHRVImportTests {
    /// Two mornings of an Apple Watch: on Jan 3 a beat list of 800 and 900 ms in turn (RMSSD 100 ms by hand,
    /// see `BeatListXML.alternating`), Apple's SDNN 48.2 ms; on Jan 4 forty beats exactly 1000 ms apart (a
    /// list that does not vary: a sensor artefact), Apple's SDNN 38.6 ms.
    static let export = AppleHealthXML.document([
        BeatListXML.record(sdnn: "48.2", start: "2024-01-03 07:14:47 +0000", end: "2024-01-03 07:15:47 +0000",
                           children: BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: 7 * 3600 + 14 * 60 + 48, .twelveHour)),
        BeatListXML.record(sdnn: "38.6", start: "2024-01-04 07:14:47 +0000", end: "2024-01-04 07:15:47 +0000",
                           children: BeatListXML.list(rr: [Double](repeating: 1000, count: 40), firstBeat: 7 * 3600 + 14 * 60 + 48, .twelveHour)),
    ].joined(separator: "\n"))

    @Test(arguments: StoreEngine.available) func appleSDNNStandsBesideTheBeatFiguresAndAFlatListIsRefusedButKept(_ engine: StoreEngine) async throws {
        let world = try await StoreImportTests.World(engine)
        let result = try await world.importFile(try world.folder.write("export.xml", Self.export))

        // The report: two records, one measurement from beats, one whose beats were refused, and why.
        #expect(result.tally.added == [.heartRateVariability: 2, .heartRateVariabilityFromBeats: 1, .heartRateVariabilityBeatsRefused: 1])
        #expect(result.tally.skippedReasons == [AppleHealthBeatList.Problem.noVariability.rawValue: 1])

        let service = LocalHealthService(store: world.store, userID: world.user.id)
        let meter = try #require(try await service.devices().first { $0.name == "Apple Watch (HRV Meter)" })
        let measurements = try await service.lastMessages(device: meter.id, count: 10, field: nil)
        #expect(measurements.count == 2, "one measurement per record")
        let refused = try #require(measurements.first)
        #expect(refused.ts == ms("2024-01-04T07:14:47Z"))
        #expect(refused.data[Field.appleSDNN] == .number(38.6))
        #expect(refused.data[Field.beatsRefused] == .text("no variability"))
        #expect(refused.data[Field.rmssd] == nil && refused.data[Field.sdnn] == nil, "no beat figures from a refused list")
        let fromBeats = try #require(measurements.last)
        #expect(fromBeats.data[Field.appleSDNN] == .number(48.2))
        #expect(fromBeats.data[Field.rmssd] == .number(100))
        #expect(fromBeats.data[Field.sdnn] == .number(50.6))
        #expect(fromBeats.data[Field.source] == .text("beats"))

        // The insights' daily figures: the refused list gives no RMSSD, so no "HRV 0.0 ms" on Jan 4.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let totals = try await service.dailyTotals(days: Day(year: 2024, month: 1, day: 3)...Day(year: 2024, month: 1, day: 4), calendar: utc)
        #expect(totals[Day(year: 2024, month: 1, day: 3)]?[.heartRateVariabilityFromBeats] == SumCount(sum: 100, count: 1))
        #expect((totals[Day(year: 2024, month: 1, day: 4)]?[.heartRateVariabilityFromBeats].count ?? 0) == 0)
        #expect(totals[Day(year: 2024, month: 1, day: 4)]?[.heartRateVariability].mean == 38.6, "Apple's SDNN of the record is kept")

        // Imported again: nothing new, nothing lost.
        let again = try await world.importFile(try world.folder.write("export.xml", Self.export))
        #expect(again.tally.addedTotal == 0)
        #expect(again.tally.alreadyThere == [.heartRateVariability: 2, .heartRateVariabilityFromBeats: 1, .heartRateVariabilityBeatsRefused: 1])
    }
}
