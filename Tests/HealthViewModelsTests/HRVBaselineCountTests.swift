import Foundation
import HealthCore
import HealthModel
import Testing
@testable import HealthViewModels

/// "Building your baseline" counts the measurements a person has made, the one shown among them.
@MainActor
struct HRVBaselineCountTests {
    @Test(arguments: ServiceFactory.all)
    func theFirstMeasurementIsOneOfFourteen(_ factory: ServiceFactory) async throws {
        try await ViewModelWorld.run(factory) { world in
            let service = try await world.signedIn()
            let meter = try await world.device("HRV Meter", named: "Welltory", on: service)
            try await service.post(NewMessage(sdid: meter.id, ts: ViewModelWorld.date("2026-11-20 07:00").millisecondsSince1970,
                                              data: [Field.rmssd: .number(40), Field.source: .text("beats")]))
            let model = HRVModel(service: service, device: meter, clock: world.clock)
            await model.refresh().complete()
            #expect(model.latest?.baselineNote == "building your baseline (1 of 14)")
        }
    }
}
