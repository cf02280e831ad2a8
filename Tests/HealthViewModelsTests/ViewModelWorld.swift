import Foundation
import HealthCore
import HealthModel
import HealthServer
import HealthViewModels
import Synchronization
import TestSupport
import Testing
import SQLiteStorage
import PostgresStorage
import RemoteClient

/// How a test world turns its store into a service: the local store over the file, a remote client of a real
/// server (on a free loopback port) that serves the same file, or the local service over a PostgreSQL
/// database of the world's own. The view-model tests run against all of them and must pass unchanged.
struct ServiceFactory: Sendable, CustomTestStringConvertible {
    var name: String
    var make: @Sendable (_ world: ViewModelWorld) async throws -> any HealthService

    var testDescription: String { name }

    static let local = ServiceFactory(name: "local") { world in
        LocalHealthService(store: try LocalStore(url: world.database, passwordHasher: .fastForTests))
    }

    static let remote = ServiceFactory(name: "remote") { world in
        RemoteHealthService(server: try await world.server().url, options: .init(timeout: TestServerLimits.clientTimeout))
    }

    static let postgres = ServiceFactory(name: "postgres") { world in
        LocalHealthService(store: try await world.store())
    }

    /// Local and remote, and PostgreSQL when the tests have a server (`TestPostgres`).
    static var all: [ServiceFactory] { [.local, .remote] + (TestPostgres.isAvailable ? [.postgres] : []) }
}

/// A temporary folder with one store, a fixed clock (Fri Nov 20, 2026 18:00 in Berlin), and helpers
/// that set up devices and readings through the `HealthService` protocol (accounts straight in the store,
/// as a server's are made next to it). A remote world
/// also runs one server over the file; `run` stops it when the test ends.
final class ViewModelWorld: Sendable {
    let folder: URL
    let database: URL
    let factory: ServiceFactory
    let clock: Clock
    private let running = Mutex<RunningServer?>(nil)
    private let postgresStore = Mutex<PostgresStore?>(nil)

    static let now = ViewModelWorld.date("2026-11-20 18:00")

    init(factory: ServiceFactory = .local) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-vm-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = folder.appendingPathComponent("hmon.sqlite")
        self.factory = factory
        clock = Clock.fixed(Self.now, timeZone: TimeZone(identifier: "Europe/Berlin")!)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Runs `body` in a new world over `factory`, then stops the world's server, whatever happens. A world
    /// with a server or PostgreSQL holds a slot of `TestSlots.shared` while it runs.
    static func run(_ factory: ServiceFactory, isolation: isolated (any Actor)? = #isolation,
                    _ body: (ViewModelWorld) async throws -> Void) async throws {
        if factory.name == ServiceFactory.local.name {
            try await run(inAWorldOver: factory, body)
        } else {
            try await TestSlots.withSlot { try await run(inAWorldOver: factory, body) }
        }
    }

    private static func run(inAWorldOver factory: ServiceFactory, isolation: isolated (any Actor)? = #isolation,
                            _ body: (ViewModelWorld) async throws -> Void) async throws {
        let world = try ViewModelWorld(factory: factory)
        do {
            try await body(world)
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }

    /// The server over the world's store, started on first use (tests use one connection at a time).
    func server() async throws -> RunningServer {
        if let server = running.withLock({ $0 }) { return server }
        let store = try LocalStore(url: database, passwordHasher: .fastForTests)
        let configuration = ServerConfiguration.forTests()
        let server = try await RunningServer.start(store: store, configuration: configuration)
        running.withLock { $0 = server }
        return server
    }

    /// The world's store: the SQLite file, or for the PostgreSQL factory its database (made on first use).
    func store() async throws -> any HealthStore {
        guard factory.name == "postgres" else { return try LocalStore(url: database, passwordHasher: .fastForTests) }
        if let store = postgresStore.withLock({ $0 }) { return store }
        let store = try await PostgresStore.open(try PostgresLocation(try await TestPostgres.newDatabase()),
                                                 passwordHasher: .fastForTests, maximumConnections: 2)
        postgresStore.withLock { $0 = store }
        return store
    }

    /// Stops the world's server, if one runs.
    func close() async {
        guard let server = running.withLock({ $0.take() }) else { return }
        await server.stop()
    }

    /// A new connection to the world's store (nobody signed in).
    func makeService() async throws -> any HealthService { try await factory.make(self) }

    /// Creates an account straight in the store: a remote client cannot (accounts are made next to the server).
    @discardableResult
    func createAccount(_ account: NewAccount) async throws -> User {
        try await store().createUser(account)
    }

    /// A connection signed in as `name`, creating the account on first use.
    func signedIn(_ name: String = "alice", password: String = "secret-pw") async throws -> any HealthService {
        let service = try await makeService()
        if (try? await service.signIn(name: name, password: password)) == nil {
            try await createAccount(NewAccount(name: name, fullName: "Alice Example",
                                               email: "\(name)@example.com", password: password))
            _ = try await service.signIn(name: name, password: password)
        }
        return service
    }

    /// A device of the named type ("Withings Device", "Activity Tracker", "Calorie Tracker").
    func device(_ typeName: String, named name: String, on service: any HealthService) async throws -> Device {
        let type = try require(try await service.deviceType(named: typeName), "no device type \(typeName)")
        return try await service.addDevice(name: name, typeID: type.id)
    }

    /// Posts a weight at a local time "2026-11-20 07:30".
    func weigh(_ kg: Double, at local: String, device: Device, on service: any HealthService) async throws {
        try await service.post(NewMessage(sdid: device.id, ts: Self.date(local).millisecondsSince1970,
                                          data: [Field.weight: .number(kg)]))
    }

    /// An instant written as Berlin local time.
    static func date(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/Berlin")!
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }
}

/// `#require` for optionals outside a test body's macro context.
func require<T>(_ value: T?, _ message: String) throws -> T {
    guard let value else { throw RequirementFailure(message: message) }
    return value
}

struct RequirementFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
