import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// The HRV table pages older measurements in, as the weights table does: End at the oldest loaded row,
/// or moving past it, loads the next page; nothing is shown twice and the order stays newest first.
@MainActor
struct HRVModelPagingTests {
    /// A meter with twelve mornings, RMSSD 40, 41, … 51 ms from 1 November: the newest is 51.
    static func twelveMornings(_ world: ViewModelWorld) async throws -> (any HealthService, Device, Date) {
        let service = try await world.signedIn()
        let meter = try await world.device("HRV Meter", named: "Welltory", on: service)
        let start = ViewModelWorld.date("2026-11-01 07:00")
        for i in 0..<12 {
            try await service.post(NewMessage(sdid: meter.id, ts: start.addingTimeInterval(Double(i) * 86_400).millisecondsSince1970,
                                              data: [Field.rmssd: .number(40 + Double(i)), Field.source: .text("beats")]))
        }
        return (service, meter, start)
    }

    @Test(arguments: ServiceFactory.all)
    func endAndPageDownLoadOlderMeasurements(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, meter, _) = try await Self.twelveMornings(world)
            let model = HRVModel(service: service, device: meter, clock: world.clock, loadCount: 5, pageSize: 4)
            await model.refresh().complete()
            #expect(model.rows.map(\.rmssd) == ["51.0", "50.0", "49.0", "48.0", "47.0"])
            #expect(model.hasOlder)

            await model.moveToBottom().complete()
            #expect(model.selectedIndex == 4, "End first goes to the oldest loaded row")
            #expect(model.rows.count == 5)

            await model.moveToBottom().complete()
            #expect(model.rows.map(\.rmssd).suffix(4) == ["46.0", "45.0", "44.0", "43.0"], "End again loads a page")
            #expect(model.selectedIndex == 8)

            await model.moveSelection(by: 10).complete()
            #expect(model.rows.map(\.rmssd) == (40...51).reversed().map { "\($0).0" })
            #expect(model.selectedIndex == 11)
            #expect(!model.hasOlder)
            #expect(Set(model.rows.map(\.id)).count == 12, "no measurement twice")

            // R keeps what was paged in.
            await model.refresh().complete()
            #expect(model.rows.count == 12)
            await model.moveToBottom().complete()
            #expect(model.rows.count == 12, "nothing older to load")
        }
    }

    /// Past the most one refresh may ask for, R keeps the measurements scrolled through behind the newest.
    @Test(arguments: ServiceFactory.all)
    func aRefreshPastTheListLimitKeepsTheOlderMeasurements(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let (service, meter, start) = try await Self.twelveMornings(world)
            let model = HRVModel(service: service, device: meter, clock: world.clock, loadCount: 5, pageSize: 4, listLimit: 6)
            await model.refresh().complete()
            await model.moveToBottom().complete()
            await model.moveToBottom().complete()
            #expect(model.rows.count == 9)

            try await service.post(NewMessage(sdid: meter.id, ts: start.addingTimeInterval(12.5 * 86_400).millisecondsSince1970,
                                              data: [Field.rmssd: .number(60), Field.source: .text("beats")]))
            await model.refresh().complete()
            #expect(model.problem == nil)
            #expect(model.rows.map(\.rmssd) == ["60.0"] + (43...51).reversed().map { "\($0).0" },
                    "the newest 6 asked again, the 4 older ones kept")
            #expect(model.hasOlder)
        }
    }
}
