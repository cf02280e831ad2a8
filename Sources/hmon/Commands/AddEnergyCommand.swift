import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon add energy --consumed 650 | --active 320 [--at …] [--device …]`: food eaten or activity burned.
struct AddEnergyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "energy", abstract: "Add energy consumed or burned.")

    @OptionGroup var store: StoreOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Energy eaten (goes to your food log).", valueName: "amount"), transform: NumberArgument.parse)
    var consumed: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Active energy burned (goes to your activity tracker).", valueName: "amount"), transform: NumberArgument.parse)
    var active: Double?

    @Option(help: "kcal or kJ (default: the profile's unit).")
    var unit: EnergyUnit?

    @Option(help: ArgumentHelp("What was eaten (with --consumed).", valueName: "text"))
    var comment: String?

    @Option(help: ArgumentHelp("When: \"YYYY-MM-DD HH:MM\" or \"HH:MM\" today (default: now).", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("The device's id or name (default: your first that records it).", valueName: "device"))
    var device: String?

    func validate() throws {
        if (consumed == nil) == (active == nil) {
            throw ValidationError("pass one of --consumed AMOUNT or --active AMOUNT")
        }
        if comment != nil, consumed == nil { throw ValidationError("--comment goes with --consumed") }
    }

    func run() async throws {
        let calendar = Calendar.current
        let now = Date()
        let time = try at.map { try LocalTime.parse($0, now: now, calendar: calendar) } ?? now
        let opened = try await StoreOpener(store).open(.readWrite)
        let preferred = try await opened.service.profile().energyUnit
        let unit = self.unit ?? preferred
        let amount = consumed ?? active ?? 0
        let field = consumed != nil ? Field.calories : Field.activeEnergy
        let suggestedType: BuiltInDeviceType = field == Field.calories ? .calorieTracker : .activityTracker
        // Stored as recorded, in kcal. The service applies `ReadingRules` to every reading; asking the
        // same rule here first reports a wrong amount before a missing device.
        let kcal = unit.toKcal(amount)
        if let spec = suggestedType.manifest.field(field) { _ = try ReadingRules.accepted(kcal, for: spec) }
        var data: [String: FieldValue] = [field: .number(kcal)]
        if let comment, !comment.isEmpty { data[Field.comments] = .text(comment) }
        let target = try await DevicePicker.pick(device, recording: field, for: opened, suggestedType: suggestedType)
        try await opened.service.post(NewMessage(sdid: target.id, ts: time.millisecondsSince1970, data: data))
        let what = field == Field.calories ? "consumed" : "active"
        printEscaped("added \(Formatting.figure(amount)) \(unit.rawValue) \(what) to \(target.name) at \(LocalTime.format(time, calendar: calendar))")
        let day = Day(time, in: calendar)
        let summary = try await opened.service.energySummary(for: day, now: now, calendar: calendar)
        printEscaped(Self.describe(summary, unit: unit, isToday: day == Day(now, in: calendar)))
    }

    /// "today: consumed 1450 kcal, active 320 kcal, resting 1020 kcal so far, net +110 kcal".
    static func describe(_ summary: EnergySummary, unit: EnergyUnit, isToday: Bool) -> String {
        // Net is summed from the rounded parts printed beside it, as the Energy screen does.
        let shown = ShownEnergy(summary, unit: unit)
        func amount(_ value: Int) -> String { "\(Formatting.grouped(value)) \(unit.rawValue)" }
        var parts = ["consumed \(amount(shown.consumed))", "active \(amount(shown.active))"]
        if let resting = shown.resting, let net = shown.net {
            parts.append("resting \(amount(resting))\(isToday ? " so far" : "")")
            // Without a meal logged the day's net would be a made-up deficit of everything spent.
            parts.append(summary.consumed > 0 ? "net \(net > 0 ? "+" : net < 0 ? "−" : "")\(amount(abs(net)))" : "net not logged")
        } else {
            let missing = summary.missing.map(\.rawValue).joined(separator: ", ")
            parts.append("resting and net need \(missing) (see `hmon profile show`)")
        }
        return "\(isToday ? "today" : summary.day.description): " + parts.joined(separator: ", ")
    }
}
