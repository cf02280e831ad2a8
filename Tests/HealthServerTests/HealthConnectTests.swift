import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing
import TestSupport

/// Health Connect's Android apps posting to a real `hmon serve` on a loopback port, with payloads written
/// from each app's published shapes (`Tests/Fixtures/health-connect/`).
@Suite struct HealthConnectTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/health-connect", isDirectory: true)

    static func fixture(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// A link for alice; with `signingSecret`, kept where the server looks for it, as `hmon link add` keeps it.
    static func link(_ world: ServerWorld, signingSecret: String? = nil) async throws -> String {
        let (id, secret) = try await world.store.createPushLink(kind: .healthConnect, userID: world.alice.id, now: Date())
        if let signingSecret {
            try world.signingSecrets.save(PushLinkSigningSecret(linkID: id, secretHash: Secrets.sha256Hex(secret), signingSecret: signingSecret))
        }
        return "/health-connect/" + secret
    }

    static func post(_ world: ServerWorld, _ path: String, _ body: String, signedWith secret: String? = nil) async throws -> Reply {
        let headers = secret.map { [PushSignature.header: PushSignature.value(body: Data(body.utf8), secret: $0)] } ?? [:]
        return try await world.post(path, json: body, headers: headers)
    }

    static func values(_ world: ServerWorld, _ kind: ReadingKind) async throws -> [Double] {
        try await world.store.readings(ReadingsQuery(field: kind.field, order: .asc), userID: world.alice.id)
            .compactMap { $0.data[kind.field]?.number }
    }

    static let signingSecret = "a signing secret the app and hmon share"

    @Test(arguments: StoreEngine.available) func aSignedBatchLandsAndTheSameBatchAgainAddsNothing(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.link(world, signingSecret: Self.signingSecret)
            let batch = try Self.fixture("life-dashboard-companion.json")
            let first = try await Self.post(world, link, batch, signedWith: Self.signingSecret)
            #expect(first.status == 200, "\(first.text)")
            #expect(try first.json["app"] as? String == "life-dashboard-companion")
            // The day's three totals (steps, active, resting) and one each of weight, body fat, lean mass,
            // HRV, resting heart rate, a meal and a night's sleep.
            #expect(try first.json["added"] as? Int == 10, "\(first.text)")
            #expect(try first.json["refused"] as? Int == 0, "\(first.text)")
            let skipped = try #require(try first.json["skipped"] as? [String: [String: Any]], "\(first.text)")
            #expect(skipped["sleep"] == nil)
            #expect(skipped["heart_rate"]?["why"] as? String == "not kept")
            #expect(skipped["total_calories"] != nil)
            #expect(try first.json["coveredByDailyTotals"] as? [String: Int] == ["steps": 1, "active_calories": 2, "basal_metabolic_rate": 1])

            #expect(try await world.store.weightReadings(userID: world.alice.id, from: 0, to: .max).map(\.kg) == [75.5])
            #expect(try await Self.values(world, .bodyFat) == [18.5])
            #expect(try await Self.values(world, .leanMass) == [61.5])
            #expect(try await Self.values(world, .restingHeartRate) == [58])
            #expect(try await Self.values(world, .steps) == [8421])
            let hrv = try await world.store.readings(ReadingsQuery(field: Field.rmssd), userID: world.alice.id)
            #expect(hrv.map { $0.data[Field.rmssd]?.number } == [42.5])
            #expect(hrv.first?.data[Field.source] == .text(HRVSource.healthConnect.rawValue))
            let meal = try await world.store.readings(ReadingsQuery(field: Field.calories), userID: world.alice.id)
            #expect(meal.first?.data[Field.comments] == .text("Oatmeal with berries, breakfast"))
            // The session: 28,800 s in bed, and of its stages one, 2 h of deep sleep, asleep.
            let night = try await world.store.readings(ReadingsQuery(field: ReadingKind.sleep.field), userID: world.alice.id)
            #expect(night.map { $0.data[ReadingKind.sleep.field]?.number } == [120])
            #expect(night.first?.data[ReadingKind.timeInBed.field]?.number == 480)
            #expect(night.first?.data[ReadingKind.deepSleep.field]?.number == 120)
            // Resting energy is the day's total less its active energy: 2231.5 − 412.
            let energy = try await world.store.energyTotals(userID: world.alice.id, from: 0, to: .max)
            #expect(energy.active == 412)
            #expect(energy.recordedBasal == 1819.5)
            #expect(energy.consumed == 450)

            let count = try await world.store.messageCount(userID: world.alice.id)
            let again = try await Self.post(world, link, batch, signedWith: Self.signingSecret)
            #expect(again.status == 200, "\(again.text)")
            #expect(try again.json["added"] as? Int == 0)
            #expect(try again.json["alreadyThere"] as? Int == 10)
            #expect(try again.json["changed"] as? Int == 0)
            #expect(try await world.store.messageCount(userID: world.alice.id) == count)
        }
    }

    @Test func aSignedBatchReachesAnOpenDashboardOfItsUser() async throws {
        try await ServerWorld.run { world in
            // Made before the feed opens: made on the store directly, as `hmon link add` does, it would reach
            // every feed as any other process's write does.
            let link = try await Self.link(world, signingSecret: Self.signingSecret)
            let dashboard = try await FeedListener.open(world.server.port, token: try await world.rawToken(for: "alice"))
            let posted = try await Self.post(world, link, try Self.fixture("life-dashboard-companion.json"), signedWith: Self.signingSecret)
            #expect(posted.status == 200, "\(posted.text)")
            #expect(await dashboard.waitFor("event: change", timeout: Waiting.patienceInSeconds), "alice's dashboard hears of the batch: \(dashboard.text)")
        }
    }

    @Test func anUnsignedOrWronglySignedBatchIs401AndKeepsNothing() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.link(world, signingSecret: Self.signingSecret)
            let batch = try Self.fixture("life-dashboard-companion.json")
            let unsigned = try await Self.post(world, link, batch)
            #expect(unsigned.status == 401, "\(unsigned.text)")
            #expect(unsigned.errorMessage?.contains("X-Signature") == true)
            let wrong = try await Self.post(world, link, batch, signedWith: "another secret")
            #expect(wrong.status == 401)
            // Signed right, but over another body: the signature covers the raw bytes.
            let signature = PushSignature.value(body: Data(batch.utf8), secret: Self.signingSecret)
            let tampered = try await world.post(link, json: batch.replacingOccurrences(of: "75.5", with: "57.5"),
                                                headers: [PushSignature.header: signature])
            #expect(tampered.status == 401)
            let garbled = try await world.post(link, json: batch, headers: [PushSignature.header: "sha256=zz"])
            #expect(garbled.status == 401)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)
        }
    }

    @Test func aSignedLinksSignatureIsCheckedBeforeTheBodyIsReadAsAPayload() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.link(world, signingSecret: Self.signingSecret)
            // No payload at all: unsigned it is a 401, so a stranger learns nothing of what the link takes.
            let garbage = "not json"
            #expect(try await Self.post(world, link, garbage).status == 401)
            let signed = try await Self.post(world, link, garbage, signedWith: Self.signingSecret)
            #expect(signed.status == 400, "\(signed.text)")
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)
            // A link without a signing secret takes an unsigned post, beside a signed one of the same user.
            let unsignedLink = try await Self.link(world)
            let reply = try await Self.post(world, unsignedLink, try Self.fixture("life-dashboard-companion.json"))
            #expect(reply.status == 200, "\(reply.text)")
        }
    }

    @Test func aPhoneAndAWatchReportingTheSameHourOfActiveEnergyCountItOnce() async throws {
        // The same hour, written to Health Connect by the phone's app and the watch's, with the day's total from
        // Health Connect's aggregate, which counts it once.
        let batch = """
            {"timestamp": "2025-02-05T12:00:00Z", "app_version": "1.2.0", "source": "health_connect",
             "active_calories": [
               {"calories": 245.3, "start_time": "2025-02-05T08:00:00Z", "end_time": "2025-02-05T09:00:00Z",
                "source": "com.google.android.apps.fitness", "uuid": "phone-hour-8"},
               {"calories": 245.3, "start_time": "2025-02-05T08:00:00Z", "end_time": "2025-02-05T09:00:00Z",
                "source": "com.samsung.android.wear.shealth", "uuid": "watch-hour-8"}],
             "daily_totals": [{"date": "2025-02-05", "active_calories": 245.3}]}
            """
        try await ServerWorld.run { world in
            let reply = try await Self.post(world, try await Self.link(world), batch)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 1)
            #expect(try reply.json["coveredByDailyTotals"] as? [String: Int] == ["active_calories": 2])
            #expect(try await world.store.energyTotals(userID: world.alice.id, from: 0, to: .max).active == 245.3)
        }
    }

    @Test(arguments: StoreEngine.available) func aDayTotalThatComesAfterItsRecordsTakesThemBack(_ engine: StoreEngine) async throws {
        // A sync delivered in two payloads: the phone's and the watch's records first, the day's total after.
        let records = """
            {"timestamp": "2025-02-05T12:00:00Z", "app_version": "1.2.0", "source": "health_connect",
             "active_calories": [
               {"calories": 245.3, "start_time": "2025-02-05T08:00:00Z", "end_time": "2025-02-05T09:00:00Z", "uuid": "phone-hour-8"},
               {"calories": 245.3, "start_time": "2025-02-05T08:00:00Z", "end_time": "2025-02-05T09:00:00Z", "uuid": "watch-hour-8"},
               {"calories": 80, "start_time": "2025-02-04T08:00:00Z", "end_time": "2025-02-04T09:00:00Z", "uuid": "phone-day-before"}]}
            """
        let total = #"{"timestamp": "2025-02-05T12:00:00Z", "app_version": "1.2.0", "source": "health_connect", "daily_totals": [{"date": "2025-02-05", "active_calories": 245.3}]}"#
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.link(world)
            #expect(try await Self.post(world, link, records).json["added"] as? Int == 3)
            let reply = try await Self.post(world, link, total)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["replacedByDailyTotals"] as? [String: Int] == ["activeEnergy": 2], "\(reply.text)")
            // The day before has no total: its record stays.
            #expect(try await Self.values(world, .activeEnergy).sorted() == [80, 245.3])
        }
    }

    @Test(arguments: StoreEngine.available) func anEditedRecordChangesTheReadingItMade(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.link(world)
            let batch = try Self.fixture("life-dashboard-companion.json")
            #expect(try await Self.post(world, link, batch).status == 200)
            let count = try await world.store.messageCount(userID: world.alice.id)
            // The same weight record (same uuid), corrected in the scale's app, and today's total grown.
            let edited = batch.replacingOccurrences(of: "\"kilograms\": 75.5", with: "\"kilograms\": 75.1")
                .replacingOccurrences(of: "\"steps\": 8421", with: "\"steps\": 9000")
            let reply = try await Self.post(world, link, edited)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 0)
            #expect(try reply.json["changed"] as? Int == 2, "\(reply.text)")
            #expect(try await world.store.weightReadings(userID: world.alice.id, from: 0, to: .max).map(\.kg) == [75.1])
            #expect(try await Self.values(world, .steps) == [9000])
            #expect(try await world.store.messageCount(userID: world.alice.id) == count)
        }
    }

    @Test func bucketsOfOneWindowAreMergedNotReplaced() async throws {
        let bucketed = try Self.fixture("life-dashboard-companion-bucketed.json")
        // The window sent again "with only the late samples", as the app does for a watch that uploaded late.
        let late = bucketed.replacingOccurrences(of: "\"sample_count\": 12, \"total\": 1840", with: "\"sample_count\": 2, \"total\": 60")
        try await ServerWorld.run { world in
            let link = try await Self.link(world)
            let first = try await Self.post(world, link, bucketed)
            #expect(first.status == 200, "\(first.text)")
            #expect(try first.json["added"] as? Int == 1)
            #expect((try first.json["skipped"] as? [String: [String: Any]])?["heart_rate"] != nil)
            #expect(try await Self.post(world, link, bucketed).json["alreadyThere"] as? Int == 1)
            #expect(try await Self.post(world, link, late).json["added"] as? Int == 1)
            #expect(try await Self.values(world, .steps).reduce(0, +) == 1900)
        }
    }

    @Test func hcWebhooksPayloadLandsByItsOwnKeysAndASecondSendAddsNothing() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.link(world)
            let batch = try Self.fixture("hc-webhook.json")
            let first = try await Self.post(world, link, batch)
            #expect(first.status == 200, "\(first.text)")
            #expect(try first.json["app"] as? String == "hc-webhook")
            // Steps, active energy, weight, a meal, resting energy, body fat, lean mass, resting heart rate, HRV,
            // and a night: 2 h deep, 3.5 h REM and 1.5 h light sleep of a 7.5-hour session.
            #expect(try first.json["added"] as? Int == 10, "\(first.text)")
            let night = try #require(try await world.store.readings(ReadingsQuery(field: ReadingKind.sleep.field), userID: world.alice.id).first)
            #expect(night.data[ReadingKind.sleep.field]?.number == 420)
            #expect(night.data[ReadingKind.timeInBed.field]?.number == 450)
            #expect(night.data[ReadingKind.deepSleep.field]?.number == 120)
            #expect(night.data[ReadingKind.remSleep.field]?.number == 210)
            #expect(night.data[ReadingKind.coreSleep.field]?.number == 90)
            // Its window, and its timed stages over the session as in bed: in bed 23:30–00:00, deep to 02:00,
            // REM to 05:30, light (kept as core) to 07:00 (`docs/methods.md`, "A night's window and stages").
            #expect(night.data[Field.sleepWindowMinutes]?.number == 450)
            #expect(night.data[Field.hypnogram] == .text("0b,30d,150r,360c,450."))
            #expect(try await Self.values(world, .heartRateVariabilityFromBeats) == [42.5])
            // 85 W for a day is 85 × 86 400 J, 1755.26 kcal.
            let basal = try #require(try await Self.values(world, .basalEnergy).first)
            #expect(abs(basal - 1755.26) < 0.01)
            let skipped = try #require(try first.json["skipped"] as? [String: [String: Any]])
            #expect(Set(skipped.keys) == ["heart_rate", "total_calories", "bone_mass"])
            let again = try await Self.post(world, link, batch)
            #expect(try again.json["added"] as? Int == 0)
            #expect(try again.json["alreadyThere"] as? Int == 10)
        }
    }

    @Test func aBodyThatIsNoPayloadIsA400ThatSaysSoAndARevokedLinkA404() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.link(world)
            for (body, words) in [("", "empty"), ("[1, 2]", "JSON object"), (#"{"source": "garmin"}"#, "source"),
                                  (#"{"hello": 1}"#, "not a Health Connect payload"), (#"{"source": "health_connect", "weight": 75}"#, "weight must be an array")] {
                let reply = try await world.post(link, json: body)
                #expect(reply.status == 400, "\(body): \(reply.text)")
                #expect(reply.errorMessage?.contains(words) == true, "\(body): \(reply.text)")
            }
            // A record hmon refuses is counted with why, and the rest of the batch is kept: a 200, not sent again.
            let mixed = #"{"source": "health_connect", "weight": [{"kilograms": 700, "time": "2025-02-05T07:00:00Z", "uuid": "w1"}, {"kilograms": 70, "time": "2025-02-06T07:00:00Z", "uuid": "w2"}, {"time": "2025-02-07T07:00:00Z"}]}"#
            let reply = try await world.post(link, json: mixed)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 1)
            #expect(try reply.json["refused"] as? Int == 2)
            #expect(try await world.post("/health-connect/not-a-link", json: mixed).status == 404)
        }
    }
}
