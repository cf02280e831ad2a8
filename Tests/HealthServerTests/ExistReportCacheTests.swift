import Foundation
import HealthCore
import HealthModel
@testable import HealthServer
@testable import SQLiteStorage
import TestSupport
import Testing
import Synchronization

/// The insights report an Exist client pages through is kept while the store is unchanged, and a commit that
/// lands while the report is being computed is seen by the very next page (the report is kept under the change
/// token read before computing; keeping it under the one read after hid such a commit until the next one).
@Suite struct ExistReportCacheTests {
    @Test func aCommitDuringTheComputationIsSeenByTheNextRequest() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-exist-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        let service = LocalHealthService(store: store, userID: user.id)
        let scale = try await service.addDevice(name: "Scale", typeID: BuiltInDeviceType.scale.deviceType.id)
        let cache = ExistReportCache()
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let calendar = Calendar(identifier: .gregorian)
        let computed = Counter()

        let first = try await cache.report(service: service, now: now, calendar: calendar) {
            computed.add()
            let report = try await service.insightsReport(now: now, calendar: calendar)
            // A weigh-in posted by another client while this report was being made: not in it.
            try await service.post(NewMessage(sdid: scale.id, ts: now.millisecondsSince1970 - 3_600_000, data: [Field.weight: .number(72.4)]))
            return report
        }
        let second = try await cache.report(service: service, now: now, calendar: calendar) {
            computed.add()
            return try await service.insightsReport(now: now, calendar: calendar)
        }
        #expect(computed.value == 2, "the report made before the weigh-in was not kept as current")
        _ = first

        let third = try await cache.report(service: service, now: now, calendar: calendar) {
            computed.add()
            return try await service.insightsReport(now: now, calendar: calendar)
        }
        // (Reports hold NaN for days without data, so they are compared by what was computed, not by ==.)
        _ = (second, third)
        #expect(computed.value <= 3, "kept once nothing changes (one more computation at most, for day sums it kept)")
        let fourth = try await cache.report(service: service, now: now, calendar: calendar) {
            computed.add()
            return try await service.insightsReport(now: now, calendar: calendar)
        }
        #expect(fourth.daily.values[.weight]?.last == 72.4, "the kept report has the weigh-in")
        #expect(computed.value <= 3, "an unchanged store computes nothing more")
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
