import Foundation
import HealthCore
import HealthModel
import HMonCommandLine
import Testing
import TestSupport

/// The sync doctor (`hmon sources`): what came by each link of a real `hmon serve`, on both engines.
@Suite struct SyncDoctorTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: StoreEngine.available) func eachLinkSaysWhatCameAndWhatWasRefusedAndASilentOneIsMarked(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let now = world.clock.now
            let phone = try await PushDoorHardeningTests.healthConnectLink(world)
            // A scale linked three days ago that never posted: its app's URL was mistyped, say.
            let (scaleID, _) = try await world.store.createPushLink(kind: .openScale, userID: world.alice.id, signingSecret: nil,
                                                                     at: now.addingTimeInterval(-3 * 86_400))
            let first = PushDoorHardeningTests.companion(["weight": [PushDoorHardeningTests.weight(75.5, uuid: "w-1", time: "2026-11-19T07:00:00Z")]])
            for _ in 0..<2 {
                let reply = try await world.post(phone, json: first)
                #expect(reply.status == 200, "\(reply.text)")
            }
            let later = PushDoorHardeningTests.companion([
                "weight": [PushDoorHardeningTests.weight(75.5, uuid: "w-1", time: "2026-11-19T07:00:00Z"),
                           PushDoorHardeningTests.weight(75.1, uuid: "w-2", time: "2026-11-20T07:00:00Z"),
                           PushDoorHardeningTests.weight(74.9, uuid: "old", time: "1969-12-31T07:00:00Z")],
            ])
            #expect(try await world.post(phone, json: later).status == 200)
            #expect(try await world.post(phone, json: "{").status == 400)

            let links = try await world.store.linkHealth(sinceDay: LinkHealth.day(of: now) - 6)
            let report = SourcesText(links: links, days: 7, now: now)
            let phoneLink = try #require(links.first { $0.link.kind == .healthConnect })
            // Two weigh-ins came, once each: a record sent again as it was brings nothing.
            #expect(phoneLink.readingsByKind.map { "\($0.kind) \($0.readings)" } == ["Weight 2"])
            #expect(phoneLink.lastArrivalAt?.millisecondsSince1970 == now.millisecondsSince1970)
            #expect(!phoneLink.isSilent(now: now))
            #expect(phoneLink.daysWithNone(days: 7, now: now).isEmpty)
            #expect(phoneLink.refusals.count == 2, "\(phoneLink.refusals)")
            #expect(phoneLink.refusals.last?.why == "weight[2] (uuid old): before 2000", "oldest last: \(phoneLink.refusals)")
            #expect(phoneLink.refusals.first?.why.hasPrefix("body") == true, "the unreadable body, newest: \(phoneLink.refusals)")

            let scale = try #require(links.first { $0.link.id == scaleID })
            #expect(scale.lastArrivalAt == nil && scale.days.isEmpty && scale.refusals.isEmpty)
            #expect(scale.isSilent(now: now))
            #expect(scale.daysWithNone(days: 7, now: now).count == 4, "the day it was made and the three since")

            let text = report.text(timeZone: Self.utc)
            #expect(text.contains("openscale  \(scaleID)  alice  SILENT: nothing ever came"), "\(text)")
            #expect(text.contains("  last 7 days: Weight 2 · days with none: 0"), "\(text)")
            #expect(text.contains("  refused lately: 2 · newest "), "\(text)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [[String: Any]])
            #expect(json.map { $0["silent"] as? Bool } == links.map { $0.isSilent(now: now) })

            // The same for scripts from the server, each person's own links only.
            _ = try await world.store.createPushLink(kind: .openScale, userID: world.bob.id, signingSecret: nil, at: now)
            let view = try await world.get("/v1.1/hmon/views/sources?days=7", token: try await world.token())
            #expect(view.status == 200, "\(view.text)")
            struct Envelope: Decodable { var data: [LinkHealthView] }
            let served = try JSONDecoder().decode(Envelope.self, from: view.body).data
            #expect(served == links.map { LinkHealthView($0, days: 7, now: now) }, "alice's two links, as `hmon sources --json` gives them")
            #expect(try await world.get("/v1.1/hmon/views/sources?days=91", token: try await world.token()).status == 400)

            // A link revoked takes its notes with it.
            #expect(try await world.store.revokePushLink(id: phoneLink.link.id))
            #expect(try await world.store.linkHealth(sinceDay: 0).filter { $0.link.userName == "alice" }.map(\.link.id) == [scaleID])
        }
    }

    /// A pulled source's read that failed is noted with its reason but is no arrival: the link stays silent.
    /// And a link's refusals are its latest `LinkHealth.refusalsListed`, newest first, numbered on from the last.
    @Test(arguments: StoreEngine.available) func aFailedReadIsNoArrivalAndOnlyTheLatestRefusalsAreKept(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let now = world.clock.now
            let (id, _) = try await world.store.createPushLink(kind: .oura, userID: world.alice.id, signingSecret: nil,
                                                                at: now.addingTimeInterval(-2 * 86_400))
            try await world.store.noteArrival(.failedRead("Oura no longer accepts its tokens"), linkID: id, at: now)
            var health = try #require(try await world.store.linkHealth(sinceDay: 0).first)
            #expect(health.lastArrivalAt == nil)
            #expect(health.refusals.map(\.why) == ["not read: Oura no longer accepts its tokens"])
            #expect(health.isSilent(now: now))

            for post in 0..<3 {
                let refusals = (0..<15).map { "sleep[\($0)] (post \(post)): before 2000" }
                try await world.store.noteArrival(LinkArrival(readings: ["readings": 1], refusals: refusals), linkID: id, at: now)
            }
            health = try #require(try await world.store.linkHealth(sinceDay: 0).first)
            #expect(health.refusals.count == LinkHealth.refusalsListed)
            #expect(health.refusals.first?.why == "sleep[14] (post 2): before 2000", "newest first: \(health.refusals.map(\.why))")
            #expect(health.refusals.last?.why == "sleep[10] (post 1): before 2000", "\(health.refusals.map(\.why))")
            #expect(health.days.map(\.readings) == [3])
            #expect(health.lastArrivalAt?.millisecondsSince1970 == now.millisecondsSince1970)
            // Noting for a link that is gone changes nothing and is no error.
            try await world.store.noteArrival(LinkArrival(readings: ["readings": 1]), linkID: "no-such-link", at: now)
        }
    }

    @Test func refusalsOfOnePostAreKeptToTheirLimitAndTheRestCounted() {
        let many = (0..<25).map { "weight[\($0)]: before 2000" }
        let kept = LinkHealth.keptRefusals(many)
        #expect(kept.count == LinkArrival.refusalsKept + 1)
        #expect(kept.last == "and 5 more refused in the same post")
        #expect(LinkHealth.keptRefusals([String(repeating: "x", count: 400)])[0].count == 300)
    }
}
