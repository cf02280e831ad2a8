import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing
import TestSupport

/// openScale-sync's webhook posting to a real `hmon serve` on a loopback port, each body in the shape its
/// `WebhookSync` writes (`{event, id, userId, username, date, weight, body_fat, water, muscle, values}`, dates
/// as `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` in UTC): hmon mirrors the scale app's inserts, updates, deletes and clears.
@Suite struct OpenScaleTests {
    static func link(_ world: ServerWorld) async throws -> String {
        let (_, secret) = try await world.store.createPushLink(kind: .openScale, userID: world.alice.id, now: Date())
        return "/openscale/" + secret
    }

    static func measurement(_ event: String?, user: Int = 1, date: String, weight: Double, fat: Double = 0, water: Double = 0,
                            muscle: Double = 0) -> String {
        let head = event.map { #""event":"\#($0)","# } ?? ""
        return #"{\#(head)"id":7,"userId":\#(user),"username":"ana","date":"\#(date)","weight":\#(weight),"body_fat":\#(fat),"#
            + #""water":\#(water),"muscle":\#(muscle),"values":[{"key":"weight","name":"Weight","unit":"kg","isDerived":false,"value":\#(weight)}]}"#
    }

    static func weights(_ world: ServerWorld) async throws -> [Message] {
        try await world.store.readings(ReadingsQuery(field: Field.weight, order: .asc), userID: world.alice.id)
    }

    @Test func anInsertAnUpdateAndADeleteAreMirroredAndATestKeepsNothing() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.link(world)
            let test = try await world.post(link, json: #"{"event":"test"}"#)
            #expect(test.status == 200, "\(test.text)")
            #expect(try await Self.weights(world).isEmpty)

            let inserted = try await world.post(link, json: Self.measurement("insert", date: "2026-11-20T06:30:00.000Z", weight: 72.4,
                                                                                fat: 21.5, water: 55.2, muscle: 40))
            #expect(inserted.status == 200, "\(inserted.text)")
            #expect(try inserted.json["added"] as? Int == 1)
            var stored = try await Self.weights(world)
            #expect(stored.map(\.ts) == [Date(timeIntervalSince1970: 1_795_156_200).millisecondsSince1970])
            #expect(stored.first?.data[Field.weight]?.number == 72.4)
            #expect(stored.first?.data[ReadingKind.bodyFat.field]?.number == 21.5)
            #expect(stored.first?.data[ReadingKind.bodyWaterPercentage.field]?.number == 55.2)
            let muscle = try #require(stored.first?.data[ReadingKind.muscleMass.field]?.number)
            #expect(abs(muscle - 72.4 * 0.40) < 1e-9, "openScale's muscle per cent, kept in kg of the weight")

            let again = try await world.post(link, json: Self.measurement("insert", date: "2026-11-20T06:30:00.000Z", weight: 72.4,
                                                                             fat: 21.5, water: 55.2, muscle: 40))
            #expect(try again.json["alreadyThere"] as? Int == 1, "a retried insert adds nothing: \(again.text)")

            let updated = try await world.post(link, json: Self.measurement("update", date: "2026-11-20T06:30:00.000Z", weight: 72.1))
            #expect(try updated.json["changed"] as? Int == 1, "\(updated.text)")
            stored = try await Self.weights(world)
            #expect(stored.map { $0.data[Field.weight]?.number } == [72.1])
            #expect(stored.first?.data[ReadingKind.bodyFat.field] == nil, "what the update no longer carries is gone")

            let deleted = try await world.post(link, json: #"{"event":"delete","userId":1,"date":"2026-11-20T06:30:00.000Z"}"#)
            #expect(try deleted.json["deleted"] as? Int == 1, "\(deleted.text)")
            #expect(try await Self.weights(world).isEmpty)
        }
    }

    @Test func aBulkInsertAppliesEachAndClearRemovesOnlyThatScaleUsersWeighIns() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.link(world)
            // A weigh-in of alice's typed by hand stays whatever openScale clears.
            let typed = try await LocalHealthService(store: world.store, userID: world.alice.id)
                .post(NewMessage(sdid: world.aliceScale.id, ts: Date(timeIntervalSince1970: 1_795_000_000).millisecondsSince1970,
                                 data: [Field.weight: .number(73.0)]))
            let bulk = #"{"event":"insert","measurements":["#
                + [Self.measurement(nil, user: 1, date: "2026-11-18T06:30:00.000Z", weight: 72.9),
                   Self.measurement(nil, user: 1, date: "2026-11-19T06:31:00.000Z", weight: 72.6),
                   Self.measurement(nil, user: 2, date: "2026-11-19T07:00:00.000Z", weight: 64.0)].joined(separator: ",") + "]}"
            let inserted = try await world.post(link, json: bulk)
            #expect(try inserted.json["added"] as? Int == 3, "\(inserted.text)")
            #expect(try await Self.weights(world).count == 4)

            let cleared = try await world.post(link, json: #"{"event":"clear","userId":1}"#)
            #expect(try cleared.json["deleted"] as? Int == 2, "\(cleared.text)")
            let left = try await Self.weights(world)
            #expect(Set(left.map(\.mid)).contains(typed))
            #expect(Set(left.compactMap { $0.data[Field.weight]?.number }) == [73.0, 64.0])
        }
    }

    @Test func aWrongLinkIs404AndABodyThatIsNoEventA400() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.link(world)
            let unknown = try await world.post("/openscale/not-a-secret", json: #"{"event":"test"}"#)
            #expect(unknown.status == 404)
            let bad = try await world.post(link, json: #"{"event":"explode"}"#)
            #expect(bad.status == 400)
            #expect(bad.text.contains("none of insert, update, delete, clear and test"), "\(bad.text)")
            let refused = try await world.post(link, json: Self.measurement("insert", date: "2026-11-20T06:30:00.000Z", weight: 900))
            #expect(refused.status == 200, "\(refused.text)")
            #expect((try refused.json["refused"] as? [String: Int])?.isEmpty == false, "\(refused.text)")
        }
    }
}
