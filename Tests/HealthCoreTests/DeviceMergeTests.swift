import Foundation
import Testing
import TestSupport
@testable import HealthCore
@testable import HealthModel

/// One person's weigh-ins split over two scales (the setup's "Scale" and a Withings added later) are joined
/// by a merge: every reading moves, in one transaction, to a device of the same person that records them.
@Suite struct DeviceMergeTests {
    @Test(arguments: StoreEngine.available) func aMergeMovesEveryReadingAndLeavesTheOtherDeviceEmpty(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, alice) = try await world.user("alice")
        let scale = try await world.device(.scale, named: "Scale", for: alice)
        let bathroom = try await world.device(.withings, named: "Bathroom scale", for: alice)
        let now = Date().millisecondsSince1970
        try await alice.post(NewMessage(sdid: scale.id, ts: now - 3 * 86_400_000, data: [Field.weight: .number(72.4)]))
        for (i, kg) in [72.1, 71.9].enumerated() {
            try await alice.post(NewMessage(sdid: bathroom.id, ts: now - Int64(i) * 86_400_000, data: [Field.weight: .number(kg)]))
        }
        let days = Day(Date(), in: .current).adding(days: -5)...Day(Date(), in: .current)
        let seriesBefore = try await alice.weightSeries(days: days, calendar: .current)

        #expect(try await alice.mergeDevice(id: bathroom.id, into: scale.id) == 2)
        let onScale = try await alice.lastMessages(device: scale.id, count: 10, field: nil)
        #expect(onScale.map { $0.data[Field.weight] } == [.number(72.1), .number(71.9), .number(72.4)])
        #expect(onScale.allSatisfy { $0.sdid == scale.id && $0.sdtid == scale.dtid }, "each reading names the device it is on now")
        #expect(try await alice.lastMessages(device: bathroom.id, count: 10, field: nil).isEmpty)
        #expect(try await alice.devices().map(\.name) == ["Scale", "Bathroom scale"], "the emptied device stays until deleted")
        #expect(try await alice.weightSeries(days: days, calendar: .current) == seriesBefore, "the same weigh-ins, one history")
        #expect(try await alice.deleteDevice(id: bathroom.id, withReadings: false) == DeviceDeletion(deleted: true, readings: 0))
    }

    @Test(arguments: StoreEngine.available) func aMergeIsRefusedWholeForAnotherUsersDeviceTheSameDeviceOrFieldsWithoutAPlace(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (alice, aliceService) = try await world.user("alice")
        let (_, bob) = try await world.user("bob")
        let scale = try await world.device(.scale, named: "Scale", for: aliceService)
        let hrv = try await world.device(.hrvMeter, named: "HRV meter", for: aliceService)
        let bobScale = try await world.device(.scale, named: "Scale", for: bob)
        let now = Date().millisecondsSince1970
        try await aliceService.post(NewMessage(sdid: hrv.id, ts: now, data: [Field.rmssd: .number(42)]))
        try await aliceService.post(NewMessage(sdid: scale.id, ts: now, data: [Field.weight: .number(70)]))

        await #expect(throws: HealthError.notYourDevice(bobScale.id)) {
            try await aliceService.mergeDevice(id: scale.id, into: bobScale.id)
        }
        await #expect(throws: HealthError.notYourDevice(scale.id)) {
            try await world.store.mergeDevice(id: scale.id, into: bobScale.id, userID: try await bob.currentUser().id)
        }
        await #expect(throws: HealthError.invalidValue("\"Scale\" cannot be merged into itself: name two different devices")) {
            try await aliceService.mergeDevice(id: scale.id, into: scale.id)
        }
        do {
            _ = try await aliceService.mergeDevice(id: hrv.id, into: scale.id)
            Issue.record("an RMSSD has no place on a scale")
        } catch let error as HealthError {
            #expect(error.message.hasPrefix("\"Scale\" does not record rmssd, which readings of \"HRV meter\" carry"), "\(error.message)")
        }
        #expect(try await aliceService.lastMessages(device: hrv.id, count: 10, field: nil).count == 1, "nothing moved")
        #expect(try await aliceService.lastMessages(device: scale.id, count: 10, field: nil).count == 1)
        _ = alice
    }

    @Test func theCommandMergesByNameAndRefusesBadInputWithNothingWritten() async throws {
        let home = try CommandLineTests.Home()
        try await home.userWithScale()
        try #require(await home.hmon(["device", "add", "--type", "Scale", "--name", "Scale", "--user", "alice"]).status == 0)
        try #require(await home.hmon(["add", "weight", "72.4", "--device", "Bathroom scale", "--at", "2026-11-20 07:00"]).status == 0)
        try #require(await home.hmon(["add", "weight", "72.1", "--device", "Bathroom scale", "--at", "2026-11-21 07:00"]).status == 0)
        try #require(await home.hmon(["add", "weight", "71.9", "--device", "Scale", "--at", "2026-11-22 07:00"]).status == 0)
        let before = try await home.snapshot()

        let unknown = try await home.hmon(["device", "merge", "Hall scale", "Scale"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no device \"Hall scale\": see `hmon device list`"), "\(unknown.stderr)")
        let itself = try await home.hmon(["device", "merge", "scale", "Scale"])
        #expect(itself.status != 0 && itself.stderr.contains("cannot be merged into itself"), "\(itself.stderr)")
        let missing = try await home.hmon(["device", "merge", "Scale"])
        #expect(missing.status == 2, "a usage error: \(missing.status) \(missing.stderr)")
        #expect(try await home.snapshot() == before, "a refused merge writes nothing")

        let merged = try await home.hmon(["device", "merge", "Bathroom scale", "Scale"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.hasPrefix("moved 2 readings from Bathroom scale to Scale; Bathroom scale is empty now"), "\(merged.stdout)")
        let listed = try await home.hmon(["reading", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 3 && rows.allSatisfy { $0["device"] as? String == "Scale" }, "\(listed.stdout)")
    }

    @Test func addWeightAndAnOpenScaleImportGoToTheSameDefaultScaleTheOldest() async throws {
        let home = try CommandLineTests.Home()
        try await home.userWithScale()   // "Bathroom scale", the oldest
        try #require(await home.hmon(["device", "add", "--type", "Scale", "--name", "Gym scale", "--user", "alice"]).status == 0)
        try #require(await home.hmon(["add", "weight", "72.4", "--at", "2026-11-20 07:00"]).status == 0)
        let csv = home.folder.file("openscale.csv")
        try Data("""
            "dateTime","weight","fat","water","muscle","comment"
            "2026-11-21 07:05","72.1","0.0","0.0","0.0",""

            """.utf8).write(to: csv)
        let imported = try await home.hmon(["import", csv.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try await home.hmon(["reading", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2 && rows.allSatisfy { $0["device"] as? String == "Bathroom scale" }, "\(listed.stdout)")
    }
}
