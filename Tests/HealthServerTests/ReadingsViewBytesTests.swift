import Foundation
import HealthCore
import HealthModel
@testable import HealthServer
import SAMIContract
import TestSupport
import Testing

/// `GET …/views/readings` is written a reading at a time as the store reads it (`ViewRoutes.ReadingsJSON`):
/// the bytes, and so the ETag, are those the whole view encoded at once gave.
@Suite struct ReadingsViewBytesTests {
    @Test(arguments: StoreEngine.available)
    func theReadingsViewIsTheBytesOfTheWholeViewEncodedAtOnce(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let now = ServerViewsTests.wholeMilliseconds(world.clock.now)
            try await ServerViewsTests.fill(world, calendar: ServerViewsTests.berlin, now: now)
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            let token = try await world.token()
            for (query, path) in [
                (ReadingsQuery(from: 0, to: HMonViews.latestTime, order: .desc, limit: HMonViews.maxReadings), "/v1.1/hmon/views/readings"),
                (ReadingsQuery(from: 0, to: HMonViews.latestTime, field: Field.weight, order: .asc, limit: 4),
                 "/v1.1/hmon/views/readings?field=weight&order=asc&limit=4"),
                (ReadingsQuery(from: 0, to: 1, order: .desc, limit: 10), "/v1.1/hmon/views/readings?from=0&to=1&limit=10"),
            ] {
                let whole = try ViewRoutes.encoded(HMonViews.ReadingsView(readings: try await local.readings(query)))
                let answer = try await ServerViewsTests.get(world, path, token: token)
                #expect(answer.status == 200)
                #expect(answer.body == whole.body, "\(path): \(String(decoding: answer.body, as: UTF8.self).prefix(200))")
                #expect(answer.etag == whole.tag, "\(path)")
                #expect(try await ServerViewsTests.get(world, path, token: token, ifNoneMatch: whole.tag).status == 304)
            }
        }
    }
}
