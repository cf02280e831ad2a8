import Foundation
import HealthCore
import HealthModel
import HealthServer
import Testing
import TestSupport
import SQLiteStorage

/// `POST /v1.1/hmon/undo` (hmon's extension): a sign-in undoes its own adds, edits and deletes over the
/// server, through its token refreshes, and never another sign-in's.
@Suite(.heavy) struct UndoOverServerTests {
    @Test func theDashboardsSignInUndoesItsChangesOneStepBackEachTime() async throws {
        try await ServerWorld.run(accessTokenLifetime: 60) { world in
            let client = try await world.aliceClient()
            let ts = Date().millisecondsSince1970 - 3_600_000
            let kept = try await client.post(NewMessage(sdid: world.aliceScale.id, ts: ts - 86_400_000, data: [Field.weight: .number(72.2)]))
            let typo = try await client.post(NewMessage(sdid: world.aliceScale.id, ts: ts, data: [Field.weight: .number(27.2)]))
            try await client.editReading(id: kept, ReadingChange(data: [Field.weight: .number(72.5)]))
            // The access token expires and is refreshed: the same sign-in, the same journal.
            world.clock.advance(by: 120)
            try await client.deleteReading(id: typo)

            let restored = try await client.undoLastChange()
            #expect(restored.undone == .delete)
            #expect(try await world.store.reading(id: typo, userID: world.alice.id).data[Field.weight] == .number(27.2))
            #expect(try await client.undoLastChange().undone == .edit)
            #expect(try await world.store.reading(id: kept, userID: world.alice.id).data[Field.weight] == .number(72.2))
            let removed = try await client.undoLastChange()
            #expect(removed.undone == .add)
            #expect(removed.reading?.mid == typo)
            #expect(removed.sentence(in: .kg) { _ in "then" } == "removed the weigh-in of 27.2 kg at then")
            #expect(try await client.undoLastChange().reading?.mid == kept)
            #expect(try await client.undoLastChange() == .nothing)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)
        }
    }

    @Test func aSAMIPostIsUndoneWithItsOwnTokenOnlyAndTheAnswerSaysWhat() async throws {
        try await ServerWorld.run { world in
            let token = try await world.token()
            let other = try await world.token()
            let posted = try await world.post("/v1.1/messages", token: token,
                                              json: #"{"sdid": "\#(world.aliceScale.id)", "data": {"weight": 27.2}}"#)
            #expect(posted.status == 200)

            // Another sign-in of the same person has nothing to undo, and changes nothing.
            let elsewhere = try await world.send("POST", "/v1.1/hmon/undo", token: other)
            #expect(elsewhere.status == 200)
            #expect(elsewhere.text == #"{"data":{}}"#)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 1)

            let undone = try await world.send("POST", "/v1.1/hmon/undo", token: token)
            #expect(undone.status == 200)
            let data = try #require(undone.json["data"] as? [String: Any])
            #expect(data["undone"] as? String == "add")
            #expect(((data["reading"] as? [String: Any])?["data"] as? [String: Any])?["weight"] as? Double == 27.2)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)

            #expect(try await world.send("POST", "/v1.1/hmon/undo").status == 401)
        }
    }

    @Test(arguments: StoreEngine.available)
    func eightUndosAtOnceOnOneSignInUndoEightChangesEachADifferentOne(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token()
            let ts = Date().millisecondsSince1970 - 3_600_000
            for step in 0..<8 {
                let posted = try await world.post("/v1.1/messages", token: token, json: """
                    {"sdid": "\(world.aliceScale.id)", "ts": \(ts - Int64(step) * 60_000), "data": {"weight": \(70 + step)}}
                    """)
                #expect(posted.status == 200, "\(posted.text)")
            }
            let answers = try await withThrowingTaskGroup(of: Reply.self) { group in
                for _ in 0..<8 { group.addTask { try await world.send("POST", "/v1.1/hmon/undo", token: token) } }
                return try await group.reduce(into: [Reply]()) { $0.append($1) }
            }
            let undone = answers.compactMap { answer -> Double? in
                let data = (try? answer.json)?["data"] as? [String: Any]
                guard answer.status == 200, data?["undone"] as? String == "add", data?["notPossible"] == nil else { return nil }
                return ((data?["reading"] as? [String: Any])?["data"] as? [String: Any])?["weight"] as? Double
            }
            #expect(undone.sorted() == (0..<8).map { Double(70 + $0) }, "each undo took a change of its own: \(answers.map(\.text))")
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)
            #expect(try await world.send("POST", "/v1.1/hmon/undo", token: token).text == #"{"data":{}}"#)
        }
    }
}

/// `hmon add weight` and `hmon undo` with `--server`: the built binary against a real server on a loopback
/// port, the typo check judged from the server's weigh-ins and the undo kept by the server per sign-in.
@Suite(.heavy) struct UndoCommandOverServerTests {
    @Test func aTypoIsRefusedForcedAndUndoneThroughTheServer() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("undo-remote")
        defer { home.remove() }
        let store = try LocalStore(url: home.folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let scale = try await store.addDevice(name: "Bathroom scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: alice.id)
        let day: Int64 = 86_400_000
        let now = Date().millisecondsSince1970
        for back in [3, 2] {
            try await store.post(NewMessage(sdid: scale.id, ts: now - Int64(back) * day, data: [Field.weight: .number(72.2)]), userID: alice.id)
        }
        let server = try await RunningServer.start(store: store, configuration: .forTests())
        defer { Task { await server.stop() } }
        func hmon(_ arguments: [String], input: String = "") async throws -> (status: Int32, output: String, errors: String) {
            try await ServeCommandTests.run(binary, arguments + ["--server", server.url.absoluteString], input: input, environment: home.environment)
        }

        let refused = try await hmon(["add", "weight", "27.2", "--user", "alice", "--password-stdin"], input: "correct horse\n")
        #expect(refused.status == 1)
        #expect(refused.errors.hasPrefix("hmon: 27.2 kg is 45.0 kg under your trend (72.2 kg): a typo?"), "\(refused.errors)")
        #expect(try await store.messageCount(userID: alice.id) == 2)

        let forced = try await hmon(["add", "weight", "27.2", "--force"])
        #expect(forced.status == 0, "\(forced.errors)")
        #expect(try await store.messageCount(userID: alice.id) == 3)

        let undone = try await hmon(["undo"])
        #expect(undone.status == 0, "\(undone.errors)")
        #expect(undone.output.hasPrefix("removed the weigh-in of 27.2 kg at "), "\(undone.output)")
        #expect(try await store.messageCount(userID: alice.id) == 2)
        // The two weigh-ins before were the store's own, not this sign-in's: nothing more to undo.
        let nothing = try await hmon(["undo"])
        #expect(nothing.status == 1)
        #expect(nothing.errors.hasPrefix("hmon: nothing to undo in this session"))
        await server.stop()
    }
}
