import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// `f` on Weights, past the scales: the weigh-ins kept aside, each the twin of a counted one that came by a way
/// counted first (openScale's own link over Health Connect, `DuplicateSettling`). The chart and the summary stay
/// the counted ones'; a twin is shown, never counted, and not deleted by hand.
@MainActor
struct WeightsAsideTests {
    @Test(arguments: ServiceFactory.all)
    func fShowsTheWeighInKeptAsideAndTheFiguresStayTheCountedOnes(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let scale = try await world.device("Scale", named: "Bathroom scale", on: service)
            let arrivals = LocalHealthService(store: try await world.store())
            _ = try await arrivals.actingAs(name: "alice")
            let ts = ViewModelWorld.date("2026-11-20 06:45").millisecondsSince1970
            func weighIn(_ mid: String, _ kg: Double, _ origin: String) -> [ArrivalWrite] {
                [.put(mid: mid, message: NewMessage(sdid: scale.id, ts: ts, data: [Field.weight: .number(kg), Field.source: .text(origin)]))]
            }
            _ = try await arrivals.applyArrival(weighIn("0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f01", 80.4000015258789, "openScale · Health Connect"),
                                                path: .healthConnect, now: ViewModelWorld.now)
            _ = try await arrivals.applyArrival(weighIn("0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f02", 80.4, "openScale · ana"),
                                                path: .openScale, now: ViewModelWorld.now)

            let model = WeightsModel(service: service, device: scale, manifest: try await service.manifest(ofType: scale.dtid),
                                     preferred: nil, clock: world.clock)
            await model.refresh().complete()
            #expect(model.rows.map(\.source) == ["openScale · ana"], "one weigh-in counted, the scale's own")
            let summary = model.summary.map(\.text)

            await model.nextFilter().complete()
            #expect(model.showsAside && model.subtitle.hasPrefix("kept aside"))
            #expect(model.rows.map(\.source) == ["openScale · Health Connect"])
            #expect(model.rows.map(\.weight) == ["80.4"])
            #expect(model.summary.map(\.text) == summary, "the figures are the counted ones' whatever the table lists")
            model.askToDelete()
            #expect(model.deleting == nil && model.problem?.contains("hmon sources prefer weight") == true)

            await model.nextFilter().complete()
            #expect(!model.showsAside && model.rows.map(\.source) == ["openScale · ana"], "and back to the counted")
        }
    }
}
