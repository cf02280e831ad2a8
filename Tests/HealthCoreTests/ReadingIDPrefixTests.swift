import Foundation
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// Issue 28, item 6: a reading named by the start of its id, as git names a commit (at least 4 hex
/// digits, and exactly one of the person's readings), on both engines and from the command line.
@Suite struct ReadingIDPrefixTests {
    @Test(arguments: StoreEngine.available) func aUniquePrefixNamesOneReadingAndAnAmbiguousOneSaysSo(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let ids = ["3f9c1200000000000000000000000001", "3f9c8800000000000000000000000002", "a0b1c2d3000000000000000000000003"]
        for (index, mid) in ids.enumerated() {
            _ = try await world.store.post(NewMessage(sdid: scale.id, ts: 1_780_000_000_000 + Int64(index) * 60_000,
                                                      data: [Field.weight: .number(72)]), userID: user.id, mid: mid, now: Date())
        }
        #expect(try await service.readingID(matching: "3f9c1") == ids[0])
        #expect(try await service.readingID(matching: "A0B1") == ids[2], "hex digits in either case")
        #expect(try await service.readingID(matching: ids[1]) == ids[1])
        do {
            _ = try await service.readingID(matching: "3f9c")
            Issue.record("3f9c starts two ids")
        } catch HealthError.invalidValue(let message) {
            #expect(message.contains("start of 2 readings") && message.contains("3f9c1200…") && message.contains("give more"), "\(message)")
        }
        await #expect(throws: HealthError.unknownReading("ffff")) { try await service.readingID(matching: "ffff") }
        await #expect(throws: HealthError.self) { try await service.readingID(matching: "3f9") }
        await #expect(throws: HealthError.self) { try await service.readingID(matching: "zzzz") }
        // Another person's reading is not found by its prefix.
        let (_, other) = try await world.user("bob")
        await #expect(throws: HealthError.unknownReading("a0b1")) { try await other.readingID(matching: "a0b1") }
    }

    @Test func theCommandsTakeAPrefix() async throws {
        let home = try CommandLineTests.Home()
        try await home.userWithScale()
        try #require(await home.hmon(["add", "weight", "27.2", "--at", "2026-11-21 07:30"]).status == 0)
        let listed = try await home.hmon(["reading", "list"])
        let id = try ReadingCommandTests.id(in: listed.stdout, of: "weight 27.2 kg")
        let edited = try await home.hmon(["reading", "edit", String(id.prefix(6)), "--value", "72.2"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.hasPrefix("changed reading \(id): weight 72.2 kg"), "the whole id is named: \(edited.stdout)")
        let short = try await home.hmon(["reading", "delete", String(id.prefix(3))])
        #expect(short.status == 1 && short.stderr.contains("at least 4"), "\(short.stderr)")
        let deleted = try await home.hmon(["reading", "delete", String(id.prefix(4))])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.hasPrefix("deleted reading \(id):"))
    }
}
