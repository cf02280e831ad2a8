import ArgumentParser
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon device list`: the user's devices, oldest first.
struct DeviceListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your devices.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "Print [{\"id\", \"name\", \"type\"}…], oldest first.")
    var json = false

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readOnly)
        let devices = try await opened.service.devices()
        if json {
            let typeNames = Dictionary(try await opened.service.deviceTypes().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            print(try ListingJSON.text(devices.map { ["id": $0.id, "name": $0.name, "type": typeNames[$0.dtid] ?? $0.dtid] }))
            return
        }
        if devices.isEmpty {
            printEscaped("\(opened.user.name) has no devices: add one with `hmon device add --type Scale --name \"Bathroom scale\"`")
            return
        }
        let typeNames = Dictionary(try await opened.service.deviceTypes().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        printEscaped(Formatting.table(["ID", "NAME", "TYPE"], devices.map { [$0.id, $0.name, typeNames[$0.dtid] ?? $0.dtid] }))
    }
}
