import Foundation
import HealthCore
import HealthModel
import HealthServer
import Logging
import Synchronization
import TestSupport
import Testing
import SQLiteStorage

/// Welltory's callback against a real server on a loopback port: stored once, refused when the link is
/// wrong or revoked or the values are malformed, and the secret never in the request log.
@Suite(.heavy) struct WelltoryCallbackTests {
    static let example = "stress=0.32&energy=0.75&productivity=0.63&rmssd=90.3&sdnn=45.1&power=100"
        + "&stress_c=green&productivity_c=red&energy_c=yellow&token=Zx9-share"

    /// Log lines, kept for the test to read.
    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct CapturingHandler: LogHandler {
        let sink: LogLines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            sink.lines.withLock { $0.append(event.message.description) }
        }
    }

    struct World {
        let store: LocalStore
        let alice: User
        let server: RunningServer
        let log: LogLines

        func get(_ path: String) async throws -> Reply {
            try await RawHTTP.send("GET", server.url.absoluteString + path)
        }

        func hrvReadings() async throws -> [Message] {
            let service = LocalHealthService(store: store, userID: alice.id)
            let meter = try #require(try await service.devices().first { $0.dtid == BuiltInDeviceType.hrvMeter.deviceType.id })
            return try await service.lastMessages(device: meter.id, count: 100, field: nil)
        }
    }

    static func run(_ body: (World) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-welltory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let log = LogLines()
        let logger = Logger(label: "test", factory: { _ in CapturingHandler(sink: log) })
        let server = try await RunningServer.start(store: store, configuration: .forTests(rateLimit: .defaultForServe),
                                                   logger: logger)
        do {
            try await body(World(store: store, alice: alice, server: server, log: log))
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test func aGoodCallbackIsSavedOnceAndTheSecretIsNotLogged() async throws {
        try await Self.run { world in
            let secret = try await world.store.createWelltoryLink(userID: world.alice.id)
            let first = try await world.get("/welltory/\(secret)?\(Self.example)")
            #expect(first.status == 200)
            #expect(first.text.contains("Saved"))
            #expect(first.text.contains("saved to Welltory"))
            let again = try await world.get("/welltory/\(secret)?\(Self.example)")
            #expect(again.status == 200)
            #expect(again.text.contains("Already saved"))
            let stored = try await world.hrvReadings()
            #expect(stored.count == 1)
            #expect(stored.first?.data[Field.stress] == .number(0.32))
            #expect(stored.first?.data[Field.shareToken] == .text("Zx9-share"))
            #expect(world.log.all.count >= 2)
            #expect(!world.log.all.contains { $0.contains(secret) }, "\(world.log.all)")
            #expect(world.log.all.contains { $0.contains("GET /welltory/… 200") })
        }
    }

    @Test func aWrongOrRevokedSecretIsNotFoundAndStoresNothing() async throws {
        try await Self.run { world in
            let secret = try await world.store.createWelltoryLink(userID: world.alice.id)
            let wrong = try await world.get("/welltory/\(String(repeating: "0", count: 64))?\(Self.example)")
            #expect(wrong.status == 404)
            #expect(try await world.store.revokeWelltoryLink(userID: world.alice.id))
            let revoked = try await world.get("/welltory/\(secret)?\(Self.example)")
            #expect(revoked.status == 404)
            #expect(revoked.text.contains("revoked"))
            #expect(try await world.hrvReadings().isEmpty)
            // A new link replaces the old one: the old secret stays dead.
            let newer = try await world.store.createWelltoryLink(userID: world.alice.id)
            #expect(try await world.get("/welltory/\(secret)?\(Self.example)").status == 404)
            #expect(try await world.get("/welltory/\(newer)?\(Self.example)").status == 200)
        }
    }

    @Test func malformedValuesAreABadRequestNamingTheParameter() async throws {
        try await Self.run { world in
            let secret = try await world.store.createWelltoryLink(userID: world.alice.id)
            let notNumber = try await world.get("/welltory/\(secret)?stress=0.3&rmssd=abc")
            #expect(notNumber.status == 400)
            #expect(notNumber.text.contains("the parameter rmssd=&quot;abc&quot; is not a number"))
            let outOfRange = try await world.get("/welltory/\(secret)?stress=1.4")
            #expect(outOfRange.status == 400)
            #expect(outOfRange.text.contains("the parameter stress is refused: stress 1.4 is outside 0–1"))
            let script = try await world.get("/welltory/\(secret)?stress_c=%3Cscript%3E")
            #expect(script.status == 400)
            #expect(!script.text.contains("<script>"))
            #expect(try await world.hrvReadings().isEmpty)
        }
    }
}
