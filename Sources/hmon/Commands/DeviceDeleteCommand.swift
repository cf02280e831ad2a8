import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon device delete "Old scale"`: the device and, after a y/n (or `--yes`), its readings.
struct DeviceDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a device, and its readings after asking (--yes to skip the question).")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The device's name or id, as `hmon device list` shows it.", valueName: "device"))
    var device: String

    @Flag(help: "Delete its readings too without asking (for scripts).")
    var yes = false

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readWrite)
        let found = try await DeviceLookup.named(device, on: opened.service)
        // Asked of the store itself, so the count the question names is the one a delete would take.
        let empty = try await opened.service.deleteDevice(id: found.id, withReadings: false)
        if empty.deleted {
            printEscaped("deleted \(found.name) (it had no readings)")
            return
        }
        let count = empty.readings
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CommandError("\(found.name) has \(count) readings: pass --yes to delete them with it")
            }
            FileHandle.standardError.write(Data(TerminalText.escapedLines(
                "Delete \(found.name) and its \(count) readings? They cannot be brought back. [y/N] ").utf8))
            guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
                printEscaped("kept \(found.name)")
                return
            }
        }
        let outcome = try await opened.service.deleteDevice(id: found.id, withReadings: true)
        printEscaped("deleted \(found.name) and its \(outcome.readings) readings")
    }
}
