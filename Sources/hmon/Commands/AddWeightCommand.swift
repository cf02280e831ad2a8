import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon add weight 72.4 [--unit kg|lb] [--at "2026-11-20 07:30"] [--device ID-or-name] [--force]`. A weight
/// far from the trend (`WeighInPlausibility`: a likely typo) is refused unless `--force`.
struct AddWeightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "weight", abstract: "Add a weigh-in.")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The weight, in the profile's unit unless --unit says otherwise, or typed with its unit: 160 lb, 72,4 kg.",
                                 valueName: "weight"))
    var typed: [String] = []

    @Option(help: "kg or lb (default: the profile's unit).")
    var unit: MassUnit?

    @Option(help: ArgumentHelp("When: \"YYYY-MM-DD HH:MM\" or \"HH:MM\" today (default: now).", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("The scale's id or name (default: your first scale).", valueName: "device"))
    var device: String?

    @Flag(help: "Save it even when it is far from your trend (more than 5 % and 2 kg: likely a typo).")
    var force = false

    func validate() throws {
        _ = try Self.parse(typed)
    }

    /// "72.4", "160 lb", "160lb", "72,4 kg": the number and the unit typed with it.
    static func parse(_ words: [String]) throws -> (Double, MassUnit?) {
        guard let mass = TypedQuantity.mass(words.joined(separator: " ")) else {
            throw ValidationError("not a plain number: pass digits like 72.4, or with their unit like 160 lb or 72,4 kg (no nan, inf or hexadecimal)")
        }
        return (mass.value, mass.unit)
    }

    func run() async throws {
        let calendar = Calendar.current
        let now = Date()
        let time = try at.map { try LocalTime.parse($0, now: now, calendar: calendar) } ?? now
        let opened = try await StoreOpener(store).open(.readWrite)
        let preferred = try await opened.service.profile().massUnit
        let (weight, typedUnit) = try Self.parse(typed)
        let unit = typedUnit ?? self.unit ?? preferred
        let kg = unit.toKg(weight)
        if unit == .lb, !ReadingRules.weightKg.contains(kg) {
            throw HealthError.invalidValue("weight \(Formatting.number(weight)) lb (\(Formatting.number(kg)) kg) is outside 1–650 kg: check the number and its unit")
        }
        if !force, let far = try await opened.service.weighInFarFromTrend(weightKg: kg, at: time, calendar: calendar) {
            throw CommandError("\(far.sentence(in: unit)): a typo? Nothing was saved: check the number, or pass --force to save it anyway")
        }
        let scale = try await DevicePicker.pick(device, recording: Field.weight, for: opened, suggestedType: .scale)
        let previous = try await opened.service.lastMessages(device: scale.id, count: 1, field: Field.weight).first
        try await opened.service.post(NewMessage(sdid: scale.id, ts: time.millisecondsSince1970,
                                                 data: [Field.weight: .number(kg)]))
        // Said in the person's units (`--unit`, else the profile's), written as the screens write them; a figure
        // typed in the other unit is echoed beside it, so "77.1kg" under lb reads "170.0 lb (77.1 kg)".
        let shownUnit = self.unit ?? preferred
        let units = QuantityText(massUnit: shownUnit)
        var line = "added \(units.text(kg, .mass))"
        if unit != shownUnit { line += " (\(QuantityText(massUnit: unit).text(kg, .mass)))" }
        line += " to \(scale.name) at \(LocalTime.format(time, calendar: calendar))"
        if let previous, previous.ts < time.millisecondsSince1970, let before = previous.data[Field.weight]?.number {
            let change = units.text(kg - before, .mass, signed: true)
            let sign = change.hasPrefix("+") || change.hasPrefix("−") ? "" : "±"
            line += " (\(sign)\(change) since \(LocalTime.format(previous.date, calendar: calendar)))"
        }
        printEscaped(line)
    }
}
