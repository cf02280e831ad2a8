import Foundation
@testable import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import Testing
import SQLiteStorage

/// The HRV screen on the demo store: what a person sees of their latest measurement, the baseline and
/// the table, and adding one by hand.
@MainActor
struct HRVScreenTests {
    static let size = Size(width: 120, height: 40)

    @Test func theDemoShowsTheLatestMeasurementTheBaselineAndTheTable() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("4"))
        let text = frame(of: dashboard, size: Self.size)
        #expect(text.contains("HRV · Welltory"))
        #expect(text.contains("RMSSD "))
        #expect(text.contains("your normal range (HRV4Training baseline, 60 days)"), "\(text)")
        #expect(text.contains("RMSSD by day"))
        #expect(text.contains("Date"))
        #expect(text.contains("Baseline"))
        let words = ["Good", "Normal", "Bad"]
        #expect(words.contains { text.contains($0) }, "colours are also said in words")
    }

    @Test func aMeasurementAddedByHandIsTheNewLatest() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("4"))
        _ = await dashboard.press(.char("a"))
        for key in "61.5" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        let text = frame(of: dashboard, size: Self.size)
        #expect(text.contains("RMSSD 61.5 ms"), "\(text)")
        #expect(text.contains("by hand"))
    }

    @Test func anOutOfRangeRMSSDIsRefusedInPlace() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("4"))
        _ = await dashboard.press(.char("a"))
        for key in "1500" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        #expect(dashboard.current.problem?.contains("rmssd 1500 ms is outside 0–1000 ms") == true,
                "\(String(describing: dashboard.current.problem))")
    }

    @Test func aWelltoryResultFromElsewhereShowsAfterR() async throws {
        let world = try await DemoWorld()
        let dashboard = try await world.dashboard()
        _ = await dashboard.press(.char("4"))
        // Another face (hmon serve's callback) stores a measurement while the screen is open.
        let user = try #require(try await world.store.user(named: DemoData.userName))
        let outside = LocalHealthService(store: world.store, userID: user.id)
        let meter = try #require(try await outside.devices().first { $0.name == "Welltory" })
        try await outside.post(NewMessage(sdid: meter.id, ts: DemoWorld.now.addingTimeInterval(-60).millisecondsSince1970, data: [
            Field.stress: .number(0.91), Field.stressColor: .text("red"), Field.rmssd: .number(22.4),
            Field.source: .text("welltory"), Field.shareToken: .text("fresh-token"),
        ]))
        _ = await dashboard.press(.char("R"))
        let text = frame(of: dashboard, size: Self.size)
        #expect(text.contains("Stress        "))
        #expect(text.contains("91 %  Bad"), "\(text)")
        #expect(text.contains("RMSSD 22.4 ms"))
        #expect(text.contains("share-measurement?token=fresh-token"))
    }
}
