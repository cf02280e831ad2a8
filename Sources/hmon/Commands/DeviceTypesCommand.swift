import Foundation
import ArgumentParser
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon device types`: the kinds of devices and the fields their readings carry.
struct DeviceTypesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "types", abstract: "List the device types and their fields.")

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Print [{\"id\", \"name\", \"fields\": [{\"name\", \"type\", \"unit\"}…]}…].")
    var json = false

    func run() async throws {
        let types: [(DeviceType, Manifest)]
        do {
            let store = try await StoreOpener(database).openStore(.readOnly)
            var listed: [(DeviceType, Manifest)] = []
            for type in try await store.deviceTypes() { listed.append((type, try await store.manifest(ofType: type.id))) }
            types = listed
        } catch HealthError.unusableStore(let store) where store.reason == .noStore {
            // Before there is a store, the types every store starts with (and nothing is created).
            types = BuiltInDeviceType.allCases.map { ($0.deviceType, $0.manifest) }.sorted { $0.0.name < $1.0.name }
        }
        if json {
            print(try ListingJSON.text(types.map { type, manifest in
                ["id": type.id, "name": type.name, "fields": manifest.fields.map { field in
                    ["name": field.name, "type": field.type.rawValue, "unit": field.unit ?? NSNull()] as [String: Any]
                }] as [String: Any]
            }))
            return
        }
        for (type, manifest) in types {
            let fields = manifest.fields.map { field in field.unit.map { "\(field.name) (\($0))" } ?? field.name }
            printEscaped("\(type.name)  \(type.id)")
            printEscaped("  \(fields.joined(separator: ", "))")
        }
    }
}
