import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// Issue 28, item 2: an Apple Watch export whose HRV tab shows Apple's SDNN beside hmon's beat figures,
/// one row per measurement, and refuses a flat beat list: the row keeps Apple's SDNN, says why, and the
/// baseline never counts it.
@MainActor
struct HRVModelAppleSDNNTests {
    /// An Apple Health HRV record of `day` (November 2026, 07:14:47 Berlin time) whose beats are `rr` apart,
    /// written as a German phone writes them (`07:14:48,00`).
    static func record(day: Int, sdnn: String, rr: [Double]) -> String {
        var at = 7.0 * 3600 + 14 * 60 + 48
        func time(_ seconds: Double) -> String {
            let hundredths = Int((seconds * 100).rounded())
            return String(format: "%02d:%02d:%02d,%02d", hundredths / 360_000, hundredths / 6000 % 60, hundredths / 100 % 60, hundredths % 100)
        }
        var beats = ["   <InstantaneousBeatsPerMinute bpm=\"70\" time=\"\(time(at))\"/>"]
        for interval in rr {
            at += interval / 1000
            beats.append("   <InstantaneousBeatsPerMinute bpm=\"\(Int(60_000 / interval))\" time=\"\(time(at))\"/>")
        }
        return """
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" unit="ms" \
        startDate="2026-11-\(day) 07:14:47 +0100" endDate="2026-11-\(day) 07:15:47 +0100" value="\(sdnn)">
          <HeartRateVariabilityMetadataList>
        \(beats.joined(separator: "\n"))
          </HeartRateVariabilityMetadataList>
         </Record>
        """
    }

    /// 800 and 900 ms in turn: every successive difference ±100 ms, so RMSSD 100 ms; SDNN 50 · √(40/39) = 50.6 ms.
    static let alternating = (0..<40).map { $0.isMultiple(of: 2) ? 800.0 : 900.0 }
    /// Forty beats exactly a second apart: no heart beats like that.
    static let flat = [Double](repeating: 1000, count: 40)

    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="de_DE">
        \(record(day: 18, sdnn: "52.0", rr: alternating))
        \(record(day: 19, sdnn: "38.6", rr: flat))
        \(record(day: 20, sdnn: "48.2", rr: alternating))
        </HealthData>
        """

    @Test(arguments: ServiceFactory.all)
    func theHRVTabShowsApplesSDNNBesideTheBeatFiguresAndRefusesAFlatList(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let user = try await service.currentUser()
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-hrv-\(UUID().uuidString).xml")
            try Data(Self.export.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            _ = try await world.store().importFile(file, userID: user.id, dryRun: false, timeZone: TimeZone(identifier: "Europe/Berlin")!,
                                                   now: ViewModelWorld.now, progress: nil)
            let meters = try await service.devices().filter { $0.name == "Apple Watch (HRV Meter)" }
            let meter = try require(meters.first, "the import makes the watch's HRV meter")
            // A page the server's `messages/last` serves (at most 100).
            let model = HRVModel(service: service, device: meter, clock: world.clock, meters: meters, loadCount: 50, pageSize: 20)
            await model.refresh().complete()

            try #require(model.rows.count == 3, "one row per record: \(model.problem ?? "")")
            let newest = model.rows[0], refused = model.rows[1]
            #expect([newest.rmssd, newest.sdnn, newest.appleSDNN, newest.source] == ["100.0", "50.6", "48.2", "beats"])
            #expect(newest.refusal == nil)
            #expect([refused.rmssd, refused.sdnn, refused.appleSDNN, refused.word] == ["—", "—", "38.6", "refused"])
            #expect(refused.refusal == "beats refused: no variability")

            let latest = try require(model.latest, "the latest measurement")
            #expect(latest.figures.map(\.label).prefix(3) == ["RMSSD", "SDNN", "Apple SDNN"], "hmon's figures, then Apple's")
            #expect(latest.figures.first { $0.label == "Apple SDNN" }?.value == "48.2 ms")
            // The newest and the one RMSSD before it: 2 of 14; the refused list is not one of them.
            #expect(latest.baselineNote == "building your baseline (2 of 14)")
            let trend = try require(model.trend, "the trend")
            #expect(trend.values.suffix(3) == [100, nil, 100], "no RMSSD on the 19th, not 0 ms")

            // The row says why; so does the delete question, naming the figure the row has.
            await model.moveSelection(by: 1).complete()
            model.askToDelete()
            #expect(model.deleting?.question.contains("(Apple SDNN 38.6 ms)") == true, "\(model.deleting?.question ?? "")")
        }
    }
}
