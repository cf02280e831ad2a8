import Foundation
import HealthCore
import Testing
import TestSupport

/// A Health Auto Export answer's counts agree: a point refused for its date (by the store's time check,
/// whose reason names no metric) counts in its metric as in the total.
@Suite struct HealthAutoExportRefusalCountTests {
    @Test(arguments: StoreEngine.available) func aPointRefusedForItsDateCountsInItsMetricAsInTheTotal(_ engine: StoreEngine) async throws {
        let body = """
            {"data": {"metrics": [{"name": "weight_body_mass", "units": "kg", "data": [
              {"qty": 72.4, "date": "2099-11-20 07:10:00 +0100", "source": "Withings"},
              {"qty": 1e300, "date": "2026-11-20 07:10:00 +0100", "source": "Withings"},
              {"qty": 72.1, "date": "2026-11-21 07:10:00 +0100", "source": "Withings"}]},
              {"name": "step_count", "units": "count", "data": [
              {"qty": 800, "date": "2099-11-20 08:01:00 +0100", "source": "Jo's iPhone"}]}]}}
            """
        try await ServerWorld.run(engine: engine) { world in
            let reply = try await HealthAutoExportTests.post(world, try await HealthAutoExportTests.link(world), body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 1)
            #expect(try reply.json["refused"] as? Int == 3, "\(reply.text)")
            #expect(try HealthAutoExportTests.metric(reply, "weight_body_mass")["refused"] as? Int == 2, "\(reply.text)")
            #expect(try HealthAutoExportTests.metric(reply, "step_count")["refused"] as? Int == 1, "\(reply.text)")
            let reasons = try #require(try reply.json["refusedReasons"] as? [String: Int])
            #expect(reasons.values.reduce(0, +) == 3, "\(reasons)")
        }
    }
}
