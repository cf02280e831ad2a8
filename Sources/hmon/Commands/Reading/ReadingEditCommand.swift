import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon reading edit ID [--value V [--field F] [--unit kg|lb]] [--at TIME]`: corrects a reading's value
/// or time, checked as a new reading is.
struct ReadingEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Correct a reading's value or time (its id from `hmon reading list`).",
        discussion: "A weight is in the profile's unit unless --unit says otherwise. The reading keeps its id and device.")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The reading's id, as `hmon reading list` shows it, or its first 4 or more characters.",
                                 valueName: "id"))
    var id: String

    @Option(help: "The new value of the reading's field.", transform: NumberArgument.parse)
    var value: Double?

    @Option(help: ArgumentHelp("Which field --value sets (needed when the reading has several numbers).", valueName: "field"))
    var field: String?

    @Option(help: "kg or lb, for a weight (default: the profile's unit).")
    var unit: MassUnit?

    @Option(help: ArgumentHelp("The new time: \"YYYY-MM-DD HH:MM\" or \"HH:MM\" today.", valueName: "time"))
    var at: String?

    @Flag(help: "Save a weight even when it is far from your trend (more than 5 % and 2 kg: likely a typo).")
    var force = false

    func validate() throws {
        if value == nil, at == nil { throw ValidationError("nothing to change: pass --value, --at or both") }
        if value == nil, field != nil || unit != nil { throw ValidationError("--field and --unit go with --value") }
    }

    func run() async throws {
        let calendar = Calendar.current
        let time = try at.map { try LocalTime.parse($0, now: Date(), calendar: calendar) }
        let opened = try await StoreOpener(store).open(.readWrite)
        let id = try await opened.service.readingID(matching: id)
        let before = try await opened.service.reading(id: id)
        var change = ReadingChange(ts: time?.millisecondsSince1970)
        if let value {
            let name = try fieldToSet(in: before)
            var stored = value
            if name == Field.weight {
                let preferred = try await opened.service.profile().massUnit
                let unit = self.unit ?? preferred
                stored = unit.toKg(value)
                if unit == .lb, !ReadingRules.weightKg.contains(stored) {
                    throw HealthError.invalidValue("weight \(Formatting.number(value)) lb (\(Formatting.number(stored)) kg) is outside 1–650 kg: check the number and its unit")
                }
                if !force, let far = try await opened.service.weighInFarFromTrend(weightKg: stored, at: time ?? before.date, calendar: calendar) {
                    throw CommandError("\(far.sentence(in: unit)): a typo? Nothing was changed: check the number, or pass --force to save it anyway")
                }
            } else if unit != nil {
                throw CommandError("--unit is for weights; \(name) is not one")
            }
            change.data[name] = .number(stored)
        }
        let was = try await ReadingDescription(of: before, on: opened.service, calendar: calendar)
        let after = try await opened.service.editReading(id: id, change)
        let now = try await ReadingDescription(of: after, on: opened.service, calendar: calendar)
        printEscaped("changed reading \(id): \(now.values) at \(now.time) (was \(was.values) at \(was.time))")
    }

    /// `--field`, else the reading's only number.
    private func fieldToSet(in reading: Message) throws -> String {
        if let field { return field }
        let numbers = reading.data.filter { $0.value.number != nil }.keys.sorted()
        guard numbers.count == 1 else {
            throw CommandError(numbers.isEmpty
                ? "reading \(id) holds no number to set: correct its time with --at"
                : "reading \(id) holds several numbers (\(numbers.joined(separator: ", "))): name the one to set with --field")
        }
        return numbers[0]
    }
}
