import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing
import TestSupport

/// What a phone app, a scale or anyone holding a link URL sends, against a real `hmon serve` on a loopback
/// port, on both engines: nothing kills the server, loses a reading or gets past a signature. Each test is
/// one finding of an attacker's walk over the push doors, with the finding's own input.
@Suite struct PushDoorHardeningTests {
    static func healthConnectLink(_ world: ServerWorld, signingSecret: String? = nil) async throws -> String {
        "/health-connect/" + (try await world.store.createPushLink(kind: .healthConnect, userID: world.alice.id,
                                                                   signingSecret: signingSecret, now: Date())).secret
    }

    static func openScaleLink(_ world: ServerWorld) async throws -> String {
        "/openscale/" + (try await world.store.createPushLink(kind: .openScale, userID: world.alice.id, now: Date())).secret
    }

    static func weights(_ world: ServerWorld) async throws -> [Double] {
        try await world.store.weightReadings(userID: world.alice.id, from: 0, to: .max).map(\.kg)
    }

    static func refusals(_ reply: Reply) throws -> [String] {
        try reply.json["refusals"] as? [String] ?? []
    }

    /// Life Dashboard Companion's weight record (`uuid`, `source`, `time`), as its sync writes it.
    static func weight(_ kilograms: Double, uuid: String, time: String) -> String {
        #"{"kilograms":\#(kilograms),"time":"\#(time)","source":"com.withings.wiscale2","uuid":"\#(uuid)"}"#
    }

    static func companion(_ arrays: [String: [String]], sentAt: String = "2026-11-20T12:00:00Z") -> String {
        let body = arrays.sorted { $0.key < $1.key }.map { #""\#($0.key)":[\#($0.value.joined(separator: ","))]"# }
        return #"{"timestamp":"\#(sentAt)","app_version":"1.2.0","source":"health_connect",\#(body.joined(separator: ","))}"#
    }

    // 1. One number in a post stopped the server: a duration converted to an integer before it was judged.
    @Test func aSleepSessionOfAbsurdLengthIsRefusedAndTheServerAnswersOn() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.healthConnectLink(world)
            for seconds in ["1e16", "1e300", "-1e300", "9223372036854775807"] {
                let body = #"{"source":"health_connect","sleep":[{"session_end_time":"2025-02-05T07:30:00Z","duration_seconds":\#(seconds),"stages":[]}]}"#
                let reply = try await world.post(link, json: body)
                #expect(reply.status == 200, "\(seconds): \(reply.text)")
                #expect(try reply.json["added"] as? Int == 0)
                #expect(try Self.refusals(reply).count == 1, "\(seconds): \(reply.text)")
            }
            let night = #"{"source":"health_connect","sleep":[{"session_end_time":"2025-02-05T07:30:00Z","duration_seconds":27000,"stages":[]}]}"#
            let after = try await world.post(link, json: night)
            #expect(after.status == 200, "the server still answers: \(after.text)")
            #expect(try after.json["added"] as? Int == 1)
        }
    }

    // 2. A refused update deleted the weigh-in it was to replace.
    @Test(arguments: StoreEngine.available) func anOpenScaleUpdateRefusedForItsValueKeepsTheWeighIn(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.openScaleLink(world)
            let date = "2026-11-20T06:30:00.000Z"
            let inserted = try await world.post(link, json: OpenScaleTests.measurement("insert", date: date, weight: 72.4))
            #expect(try inserted.json["added"] as? Int == 1, "\(inserted.text)")
            for (field, update) in [("weight", OpenScaleTests.measurement("update", date: date, weight: 900)),
                                    ("body fat", OpenScaleTests.measurement("update", date: date, weight: 72.0, fat: 500))] {
                let refused = try await world.post(link, json: update)
                #expect(refused.status == 200, "\(field): \(refused.text)")
                #expect(try refused.json["changed"] as? Int == 0)
                #expect(try Self.refusals(refused).count == 1, "\(field): \(refused.text)")
                #expect(try await Self.weights(world) == [72.4], "the \(field) update refused left the weigh-in as it was")
            }
        }
    }

    // 3. One bad record failed a whole batch after part of it was written.
    @Test(arguments: StoreEngine.available) func aBatchKeepsItsGoodRecordsAndNamesEachBadOneByItsPlace(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.healthConnectLink(world)
            let first = try await world.post(link, json: Self.companion(["weight": [Self.weight(76.0, uuid: "w-1", time: "2026-11-19T07:00:00Z")]]))
            #expect(try first.json["added"] as? Int == 1, "\(first.text)")

            let batch = Self.companion([
                "weight": [Self.weight(77.5, uuid: "w-1", time: "2026-11-19T07:00:00Z"),
                           Self.weight(70.0, uuid: "w-2", time: "2026-11-20T07:00:00Z"),
                           Self.weight(71.0, uuid: "bad-1", time: "1969-12-31T07:00:00Z"),
                           Self.weight(71.0, uuid: "bad-2", time: "0000-01-01T07:00:00Z"),
                           Self.weight(71.0, uuid: "bad-3", time: "9999-12-31T07:00:00Z")],
                "nutrition": [#"{"calories":450.0,"name":"Oat\u001b[2Jmeal","meal_type":"breakfast","start_time":"2026-11-20T08:00:00Z","uuid":"n-esc"}"#,
                              #"{"calories":450.0,"name":"Oat\u0000meal","start_time":"2026-11-20T08:00:00Z","uuid":"n-nul"}"#,
                              #"{"calories":450.0,"name":"Oat\u202emeal","start_time":"2026-11-20T08:00:00Z","uuid":"n-bidi"}"#,
                              #"{"calories":320.0,"name":"Soup","start_time":"2026-11-20T13:00:00Z","uuid":"n-good"}"#],
            ])
            let reply = try await world.post(link, json: batch)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 2, "the new weigh-in and the soup: \(reply.text)")
            #expect(try reply.json["changed"] as? Int == 1, "the edit of w-1: \(reply.text)")
            #expect(try reply.json["refused"] as? Int == 6, "\(reply.text)")
            let refusals = try Self.refusals(reply)
            #expect(refusals.contains("weight[2] (uuid bad-1): before 2000"), "\(refusals)")
            #expect(refusals.contains { $0.hasPrefix("weight[4] (uuid bad-3): ") }, "\(refusals)")
            for place in ["nutrition[0] (uuid n-esc)", "nutrition[1] (uuid n-nul)", "nutrition[2] (uuid n-bidi)"] {
                #expect(refusals.contains { $0.hasPrefix(place + ": ") }, "\(place): \(refusals)")
            }
            #expect(try await Self.weights(world) == [77.5, 70.0])
            let meals = try await world.store.readings(ReadingsQuery(field: Field.calories), userID: world.alice.id)
            #expect(meals.map { $0.data[Field.comments] } == [.text("Soup")])
        }
    }

    // 4. Twenty first posts at once raced on the making of the person's first devices.
    @Test(arguments: StoreEngine.available) func twentyFirstPostsAtOnceAllLandOnOneDevicePerKind(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.healthConnectLink(world)
            let statuses = try await withThrowingTaskGroup(of: Reply.self) { group in
                for index in 0..<20 {
                    let hour = String(format: "%02d", index)
                    let body = Self.companion([
                        "steps": [#"{"count":\#(100 + index),"start_time":"2026-11-19T\#(hour):00:00Z","end_time":"2026-11-19T\#(hour):30:00Z","uuid":"s-\#(index)"}"#],
                        "weight": [Self.weight(70 + Double(index) / 10, uuid: "w-\(index)", time: "2026-11-19T\(hour):05:00Z")],
                    ])
                    group.addTask { try await world.post(link, json: body) }
                }
                var replies: [Reply] = []
                for try await reply in group { replies.append(reply) }
                return replies
            }
            #expect(statuses.allSatisfy { $0.status == 200 }, "\(statuses.filter { $0.status != 200 }.map(\.text))")
            let devices = try await world.store.devices(userID: world.alice.id)
            #expect(devices.filter { $0.name == "Activity tracker" }.count == 1, "\(devices.map(\.name))")
            #expect(try await world.store.messageCount(userID: world.alice.id) == 40)
        }
    }

    // 5. A signed link failed open on a server that could not read its signing secret from its own folder.
    @Test(arguments: StoreEngine.available) func aSignedLinkTakesOnlySignedPostsOnEveryServerOfItsStore(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let secret = "the link's signing secret, kept with the link"
            let link = try await Self.healthConnectLink(world, signingSecret: secret)
            // No file of this server's data folder knows the link: the store does.
            #expect(!FileManager.default.fileExists(atPath: world.signingSecrets.folder.path))
            let body = Self.companion(["weight": [Self.weight(75.5, uuid: "w-1", time: "2026-11-19T07:00:00Z")]])
            let unsigned = try await world.post(link, json: body)
            #expect(unsigned.status == 401, "\(unsigned.text)")
            let forged = try await world.post(link, json: body, headers: [PushSignature.header: PushSignature.value(body: Data(body.utf8), secret: "guess")])
            #expect(forged.status == 401, "\(forged.text)")
            #expect(try await Self.weights(world).isEmpty, "a push that fails its signature keeps nothing")
            let signed = try await world.post(link, json: body, headers: [PushSignature.header: PushSignature.value(body: Data(body.utf8), secret: secret)])
            #expect(signed.status == 200, "\(signed.text)")
            #expect(try await Self.weights(world) == [75.5])
        }
    }

    /// A link made before the store kept signing secrets has its secret in one server's data folder: moved
    /// into the store when that server starts, so a server with another data folder verifies it too.
    @Test(arguments: StoreEngine.available) func aSigningSecretLeftInAServersFolderMovesIntoTheStore(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let secret = "an older link's signing secret"
            let link = try await Self.healthConnectLink(world)
            let linkSecret = String(link.split(separator: "/").last!)
            let holder = try #require(try await world.store.pushLinkHolder(secret: linkSecret, kind: .healthConnect, now: Date()))
            let otherHome = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-other-server-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: otherHome) }
            let otherFolder = PushLinkSigningSecrets(folder: otherHome.appendingPathComponent("push-signing"))
            try otherFolder.save(PushLinkSigningSecret(linkID: holder.linkID, secretHash: Secrets.sha256Hex(linkSecret), signingSecret: secret))
            // A revoked link's file and a file hmon cannot read beside it.
            let revoked = PushLinkSigningSecret(linkID: "gone", secretHash: Secrets.sha256Hex("revoked"), signingSecret: "old")
            try otherFolder.save(revoked)
            let unreadable = otherFolder.folder.appendingPathComponent("not-a-secret.json")
            try Data("{".utf8).write(to: unreadable)

            let (moved, problems) = await otherFolder.moveIntoStore(world.store)
            #expect(moved == 1)
            #expect(problems.count == 1 && problems[0].contains("not-a-secret.json"), "\(problems)")
            let left = try FileManager.default.contentsOfDirectory(atPath: otherFolder.folder.path)
            #expect(left == ["not-a-secret.json"], "the moved and the revoked link's files are deleted: \(left)")

            // This server's own folder never held the secret: the store now does.
            let body = Self.companion(["weight": [Self.weight(75.5, uuid: "w-1", time: "2026-11-19T07:00:00Z")]])
            let unsigned = try await world.post(link, json: body)
            #expect(unsigned.status == 401, "\(unsigned.text)")
            #expect(try await Self.weights(world).isEmpty)
            let signed = try await world.post(link, json: body, headers: [PushSignature.header: PushSignature.value(body: Data(body.utf8), secret: secret)])
            #expect(signed.status == 200, "\(signed.text)")
            #expect(try await Self.weights(world) == [75.5])
            #expect(await otherFolder.moveIntoStore(world.store) == (0, problems), "a second start moves nothing again")
        }
    }

    // 6. One Oura document dated 2099 blocked every later read of the link.
    @Test(arguments: StoreEngine.available) func anOuraNightDated2099IsSkippedAndNamedAndTheGoodNightKept(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let today = Day(world.clock.now, in: Calendar(identifier: .gregorian))
            func document(_ night: OuraExamples.Night) throws -> OuraSleep {
                try JSONDecoder().decode(OuraSleep.self, from: JSONSerialization.data(withJSONObject: night.json))
            }
            let good = try document(.night("good", endingOn: today.adding(days: -1)))
            let future = try document(.night("future", endingOn: Day(year: 2099, month: 1, day: 1)))
            let nights = OuraNights([future, good])
            let service = LocalHealthService(store: world.store, userID: world.alice.id)
            let tally = try await OuraArrival.store(nights.readings, service: service, userID: world.alice.id, now: world.clock.now)
            #expect(tally.added == 4, "the good night, its HRV, its lowest heart rate and its breathing rate: \(tally)")
            #expect(tally.refused.count == 4, "\(tally.refused)")
            #expect(tally.refused.contains("night:2099-01-01: more than a day in the future"), "\(tally.refused)")
            let again = try await OuraArrival.store(nights.readings, service: service, userID: world.alice.id, now: world.clock.now)
            #expect(again.alreadyThere == 4 && again.added == 0, "every later read goes on: \(again)")
        }
    }

    // 7. Impossible dates passed the push decoders (February 30 stored as March 2).
    @Test(arguments: StoreEngine.available) func impossibleDatesAreRefusedAtThePushDoors(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.healthConnectLink(world)
            let times = ["2025-02-30T07:00:00Z", "2025-02-05T07:00:00+99:00", "2025-02-05T07:00:00+01:99", "1970-01-01T00:00:00Z",
                         "2025-02-05T24:00:00Z", "2025-13-05T07:00:00Z"]
            let body = Self.companion(["weight": times.enumerated().map { Self.weight(75.5, uuid: "t-\($0.offset)", time: $0.element) }])
            let reply = try await world.post(link, json: body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["refused"] as? Int == times.count, "\(reply.text)")
            #expect(try await Self.weights(world).isEmpty)

            let scale = try await Self.openScaleLink(world)
            let february30 = try await world.post(scale, json: OpenScaleTests.measurement("insert", date: "2025-02-30T06:30:00.000Z", weight: 72.4))
            #expect(february30.status == 400, "\(february30.text)")
            #expect(february30.errorMessage?.contains("date") == true, "\(february30.text)")
            #expect(try await Self.weights(world).isEmpty)
        }
    }

    // 10. A malformed openScale event answered 200 and did nothing.
    @Test func aMalformedOpenScaleEventIsA400NamingItsField() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.openScaleLink(world)
            let reply = try await world.post(link, json: #"{"event":"insert","measurements":"notarray"}"#)
            #expect(reply.status == 400, "\(reply.text)")
            #expect(reply.errorMessage?.contains("measurements") == true, "\(reply.text)")
            // In a bulk event, one bad measurement costs only itself.
            let bulk = #"{"event":"insert","measurements":["# + [
                OpenScaleTests.measurement(nil, date: "2026-11-18T06:30:00.000Z", weight: 72.9),
                OpenScaleTests.measurement(nil, date: "2026-02-30T06:30:00.000Z", weight: 72.6),
            ].joined(separator: ",") + "]}"
            let mixed = try await world.post(link, json: bulk)
            #expect(mixed.status == 200, "\(mixed.text)")
            #expect(try mixed.json["added"] as? Int == 1)
            #expect(try Self.refusals(mixed).first?.hasPrefix("measurements[1]: date") == true, "\(mixed.text)")
        }
    }

    // 10. A 48 MB post was logged as 413, but the client, still sending, met a broken pipe.
    @Test func anOversizedPushIsA413TheClientReads() async throws {
        try await ServerWorld.run { world in
            let link = try await Self.healthConnectLink(world)
            let body = "{\"source\":\"health_connect\",\"pad\":\"" + String(repeating: "x", count: 48 * 1024 * 1024) + "\"}"
            let reply = try await world.post(link, json: body)
            #expect(reply.status == 413, "\(reply.status): \(reply.text.prefix(200))")
            let after = try await world.post(link, json: Self.companion(["weight": [Self.weight(75.5, uuid: "w", time: "2026-11-19T07:00:00Z")]]))
            #expect(after.status == 200, "\(after.text)")
        }
    }

    // 10. An old signed body sent again rolled back a record edited since (76.5 → 75.5 kg).
    @Test(arguments: StoreEngine.available) func anOldSignedBodySentAgainDoesNotRollAnEditBack(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let secret = "the link's signing secret"
            let link = try await Self.healthConnectLink(world, signingSecret: secret)
            func post(_ body: String) async throws -> Reply {
                try await world.post(link, json: body, headers: [PushSignature.header: PushSignature.value(body: Data(body.utf8), secret: secret)])
            }
            let first = Self.companion(["weight": [Self.weight(75.5, uuid: "w-1", time: "2026-11-19T07:00:00Z")]], sentAt: "2026-11-19T08:00:00Z")
            let edit = Self.companion(["weight": [Self.weight(76.5, uuid: "w-1", time: "2026-11-19T07:00:00Z")]], sentAt: "2026-11-19T20:00:00Z")
            #expect(try await post(first).json["added"] as? Int == 1)
            #expect(try await post(edit).json["changed"] as? Int == 1)
            let replayed = try await post(first)
            #expect(replayed.status == 200, "\(replayed.text)")
            #expect(try replayed.json["stale"] as? Int == 1, "\(replayed.text)")
            #expect(try await Self.weights(world) == [76.5], "the edit stands")
            // A later edit still lands.
            let later = Self.companion(["weight": [Self.weight(76.0, uuid: "w-1", time: "2026-11-19T07:00:00Z")]], sentAt: "2026-11-20T08:00:00Z")
            #expect(try await post(later).json["changed"] as? Int == 1)
            #expect(try await Self.weights(world) == [76.0])
        }
    }

    // 10. A NUL in a Basic-auth client id at POST /token was a 500.
    @Test func aNULInBasicCredentialsAtTheTokenDoorIsA400() async throws {
        try await ServerWorld.run { world in
            let credentials = Data("cli\u{0}ent:secret".utf8).base64EncodedString()
            let reply = try await world.postForm("/token", [("grant_type", "client_credentials")],
                                                 headers: ["Authorization": "Basic \(credentials)"])
            #expect(reply.status == 400, "\(reply.text)")
            #expect(try reply.json["error"] as? String == "invalid_request", "\(reply.text)")
        }
    }
}
