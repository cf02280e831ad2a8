import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon reading delete ID`: the reading leaves every screen, series and total.
struct ReadingDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a reading (its id from `hmon reading list`).")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The reading's id, as `hmon reading list` shows it, or its first 4 or more characters.",
                                 valueName: "id"))
    var id: String

    func run() async throws {
        let opened = try await StoreOpener(store).open(.readWrite)
        let id = try await opened.service.readingID(matching: id)
        let reading = try await opened.service.reading(id: id)
        let described = try await ReadingDescription(of: reading, on: opened.service)
        try await opened.service.deleteReading(id: id)
        printEscaped("deleted reading \(id): \(described.values) at \(described.time) from \(described.device)")
    }
}

/// A reading as the `reading` subcommands name it in their one-line answers.
struct ReadingDescription {
    var values: String
    var time: String
    var device: String

    init(of reading: Message, on service: any HealthService, calendar: Calendar = .current) async throws {
        let profile = try await service.profile()
        let manifest = try? await service.manifest(ofType: reading.sdtid)
        values = ReadingText.values(reading.data, manifest: manifest, massUnit: profile.massUnit, energyUnit: profile.energyUnit)
        time = LocalTime.format(reading.date, calendar: calendar)
        device = try await service.devices().first { $0.id == reading.sdid }?.name ?? reading.sdid
    }
}
