import Foundation
@testable import HealthConnectors
import HealthCore
import HealthModel
import Synchronization
import Testing
import TestSupport

/// A Health Connect payload is written in one transaction however large: a first sync's backfill of more
/// records than any chunk is seen by every other reader of the store as nothing, then as all of it — what a
/// kill -9 part way leaves too. Readers ask over and over while it is written, on both engines.
@Suite struct HealthConnectOneTransactionTests {
    @Test(arguments: StoreEngine.available)
    func aBackfillOfTwelveThousandRecordsIsSeenWholeOrNotAtAll(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let now = Date()
            let first = now.addingTimeInterval(-10 * 86_400).millisecondsSince1970
            let readings = (0..<12_000).map { place in
                HealthConnectReading(kind: .restingHeartRate, key: "resting-\(place)", timestamp: first + Int64(place) * 60_000,
                                     value: Double(55 + place % 20))
            }
            let service = LocalHealthService(store: world.store, userID: world.alice.id)
            let finished = Atomic(false)
            let writing = Task {
                defer { finished.store(true, ordering: .releasing) }
                return try await HealthConnectArrival.store(readings, service: service, userID: world.alice.id, now: now)
            }
            var seen: Set<Int> = []
            while !finished.load(ordering: .acquiring) {
                seen.insert(try await world.store.countReadings(userID: world.alice.id, from: first))
            }
            let tally = try await writing.value
            #expect(tally.added[.restingHeartRate] == 12_000)
            seen.insert(try await world.store.countReadings(userID: world.alice.id, from: first))
            #expect(seen.isSubset(of: [0, 12_000]), "a reader saw part of the payload: \(seen.sorted())")
            #expect(seen.contains(12_000))
        }
    }
}
