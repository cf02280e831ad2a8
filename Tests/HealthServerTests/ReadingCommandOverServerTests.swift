import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
import SQLiteStorage

/// `hmon reading list|edit|delete` and `hmon export` with `--server`: the built binary against a real
/// server on a loopback port, through the reading routes.
@Suite(.heavy) struct ReadingCommandOverServerTests {
    @Test func aReadingIsListedCorrectedDeletedAndExportedThroughTheServer() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("reading-remote")
        defer { home.remove() }
        let store = try LocalStore(url: home.folder.appendingPathComponent("server.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let bob = try await store.createUser(NewAccount(name: "bob", password: "correct horse"))
        let scale = try await store.addDevice(name: "Bathroom scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: alice.id)
        let bobsScale = try await store.addDevice(name: "Bob's scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: bob.id)
        let hour: Int64 = 3_600_000
        let now = Date().millisecondsSince1970
        let good = try await store.post(NewMessage(sdid: scale.id, ts: now - 2 * hour, data: [Field.weight: .number(72.4)]), userID: alice.id)
        let typo = try await store.post(NewMessage(sdid: scale.id, ts: now - hour, data: [Field.weight: .number(27.4)]), userID: alice.id)
        let bobs = try await store.post(NewMessage(sdid: bobsScale.id, data: [Field.weight: .number(88)]), userID: bob.id)
        let server = try await RunningServer.start(store: store, configuration: .forTests())
        defer { Task { await server.stop() } }
        let address = server.url.absoluteString
        func hmon(_ arguments: [String], input: String = "") async throws -> (status: Int32, output: String, errors: String) {
            try await ServeCommandTests.run(binary, arguments + ["--server", address], input: input, environment: home.environment)
        }

        let listed = try await hmon(["reading", "list", "--user", "alice", "--password-stdin"], input: "correct horse\n")
        #expect(listed.status == 0, "\(listed.errors)")
        let ids = listed.output.split(separator: "\n").dropFirst().map { String($0.split(separator: " ")[0]) }
        #expect(ids == [typo, good], "newest first, only alice's: \(listed.output)")

        let edited = try await hmon(["reading", "edit", typo, "--value", "72.6"])
        #expect(edited.status == 0, "\(edited.errors)")
        #expect(edited.output.hasPrefix("changed reading \(typo): weight 72.6 kg"))
        #expect(try await store.reading(id: typo, userID: alice.id).data == [Field.weight: .number(72.6)])

        let notHers = try await hmon(["reading", "delete", bobs])
        #expect(notHers.status == 1)
        #expect(notHers.errors == "hmon: reading \(bobs) belongs to another user\n")
        #expect(try await store.messageCount(userID: bob.id) == 1)

        let deleted = try await hmon(["reading", "delete", good])
        #expect(deleted.status == 0, "\(deleted.errors)")
        await #expect(throws: HealthError.unknownReading(good)) { try await store.reading(id: good, userID: alice.id) }

        let exported = try await hmon(["export", "--format", "json"])
        #expect(exported.status == 0, "\(exported.errors)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["reading_id"] as? String } == [typo])
        #expect(rows.first?["value"] as? Double == 72.6)
        #expect(rows.first?["device"] as? String == "Bathroom scale")
        await server.stop()
    }
}
