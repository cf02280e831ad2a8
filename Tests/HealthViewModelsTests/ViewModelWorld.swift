import Foundation
import HealthCore
import HealthViewModels

/// How a test world turns its store file into a service. The local store is the default; the remote
/// client's tests can pass a factory that serves the same file over HTTP and connects to it, and run
/// these view-model tests unchanged.
struct ServiceFactory: Sendable {
    var make: @Sendable (_ database: URL) async throws -> any HealthService

    static let local = ServiceFactory { url in
        LocalHealthService(store: try LocalStore(url: url, passwordHasher: .fastForTests))
    }
}

/// A temporary folder with one store, a fixed clock (Fri Nov 20, 2026 18:00 in Berlin), and helpers
/// that set up accounts, devices and readings through the `HealthService` protocol only.
final class ViewModelWorld: Sendable {
    let folder: URL
    let database: URL
    let factory: ServiceFactory
    let clock: Clock

    static let now = ViewModelWorld.date("2026-11-20 18:00")

    init(factory: ServiceFactory = .local) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-vm-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = folder.appendingPathComponent("hmon.sqlite")
        self.factory = factory
        clock = Clock.fixed(Self.now, timeZone: TimeZone(identifier: "Europe/Berlin")!)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// A new connection to the world's store (nobody signed in).
    func makeService() async throws -> any HealthService { try await factory.make(database) }

    /// A connection signed in as `name`, creating the account on first use.
    func signedIn(_ name: String = "alice", password: String = "secret-pw") async throws -> any HealthService {
        let service = try await makeService()
        if (try? await service.signIn(name: name, password: password)) == nil {
            _ = try await service.createAccount(NewAccount(name: name, fullName: "Alice Example",
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
