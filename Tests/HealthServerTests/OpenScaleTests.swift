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

    @Test func aBulkInsertKeepsTheFollowedUsersWeighInsAndClearRemovesOnlyThose() async throws {
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
            #expect(inserted.status == 200, "another user's weigh-in is answered, so the app does not send it again: \(inserted.text)")
            #expect(try inserted.json["added"] as? Int == 2, "\(inserted.text)")
            #expect(try inserted.json["following"] as? Int == 1, "the first user the link hears from: \(inserted.text)")
            let skipped = try #require(try inserted.json["skipped"] as? [String: Int], "\(inserted.text)")
            #expect(skipped.keys.contains { $0.hasPrefix("openScale user 2 (ana): this link follows openScale user 1") }, "\(skipped)")
            #expect(try await Self.weights(world).count == 3)

            let otherClear = try await world.post(link, json: #"{"event":"clear","userId":2}"#)
            #expect(try otherClear.json["deleted"] as? Int == 0, "\(otherClear.text)")
            let cleared = try await world.post(link, json: #"{"event":"clear","userId":1}"#)
            #expect(try cleared.json["deleted"] as? Int == 2, "\(cleared.text)")
            let left = try await Self.weights(world)
            #expect(left.map(\.mid) == [typed])
        }
    }

    /// openScale-sync's insert of a second person on the same phone (`WebhookSync`'s map, `event` last).
    static let guestInsert = #"{"id":137,"userId":2,"username":"guest","date":"2026-11-20T05:42:10.000Z","weight":62.3,"body_fat":0.0,"water":0.0,"muscle":0.0,"values":[{"key":"weight","name":"Weight","unit":"kg","isDerived":false,"value":62.3}],"event":"insert"}"#

    @Test(arguments: StoreEngine.available) func aLinkMadeForOneOpenScaleUserKeepsNoneOfAnothersWeighIns(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            // `hmon link add openscale --openscale-user 1`: the link follows user 1 before it hears from anyone.
            let (id, secret) = try await world.store.createPushLink(kind: .openScale, userID: world.alice.id, now: Date())
            #expect(try await world.store.followSourceUser(1, linkID: id) == 1)
            let link = "/openscale/" + secret
            let guest = try await world.post(link, json: Self.guestInsert)
            #expect(guest.status == 200, "\(guest.text)")
            #expect(try guest.json["added"] as? Int == 0, "\(guest.text)")
            #expect(try await Self.weights(world).isEmpty, "the guest's 62.3 kg is nowhere")
            let own = try await world.post(link, json: Self.measurement("insert", user: 1, date: "2026-11-20T06:45:00.000Z", weight: 80.4))
            #expect(try own.json["added"] as? Int == 1, "\(own.text)")
            #expect(try await Self.weights(world).compactMap { $0.data[Field.weight]?.number } == [80.4])
            // Following is kept: the guest's first post did not take the link over.
            #expect(try await world.store.followSourceUser(2, linkID: id) == 1)
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
