import ArgumentParser
import HealthCore
import HMonCommandLine

/// `hmon device types`: the kinds of devices and the fields their readings carry.
struct DeviceTypesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "types", abstract: "List the device types and their fields.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let store = try StoreOpener(database).openStore()
        for type in try await store.deviceTypes() {
            let fields = try await store.manifest(ofType: type.id).fields
                .map { field in field.unit.map { "\(field.name) (\($0))" } ?? field.name }
            print("\(type.name)  \(type.id)")
            print("  \(fields.joined(separator: ", "))")
        }
    }
}
