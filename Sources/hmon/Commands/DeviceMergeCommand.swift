import ArgumentParser
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon device merge "Bathroom scale" Scale`: one person's weigh-ins split over two scales become one
/// history. The readings move as they are, in one transaction; the emptied device stays until deleted.
struct DeviceMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Move every reading of one device onto another of yours.")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The device whose readings move, by name or id as `hmon device list` shows it.",
                                 valueName: "from"))
    var from: String

    @Argument(help: ArgumentHelp("The device they move to.", valueName: "into"))
    var into: String

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readWrite)
        let devices = try await opened.service.devices()
        let source = try DeviceLookup.named(from, in: devices)
        let target = try DeviceLookup.named(into, in: devices)
        let moved = try await opened.service.mergeDevice(id: source.id, into: target.id)
        let readings = moved == 1 ? "1 reading" : "\(Formatting.grouped(moved)) readings"
        printEscaped("moved \(readings) from \(source.name) to \(target.name); \(source.name) is empty now "
                     + "(`hmon device delete \"\(source.name)\"` removes it)")
    }
}
