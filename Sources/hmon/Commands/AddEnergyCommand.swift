import ArgumentParser
import Foundation
import HealthCore

/// `hmon add energy --consumed 650 | --active 320 [--at …] [--device …]`: food eaten or activity burned.
struct AddEnergyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "energy", abstract: "Add energy consumed or burned.")

    @OptionGroup var store: StoreOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Energy eaten (goes to your food log).", valueName: "amount"))
    var consumed: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Active energy burned (goes to your activity tracker).", valueName: "amount"))
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
        let opened = try await ServiceOpener(store).open()
        let preferred = try await opened.service.profile().energyUnit
        let unit = self.unit ?? preferred
        let amount = consumed ?? active ?? 0
        let kcal = unit.toKcal(amount)
        let field = consumed != nil ? Field.calories : Field.activeEnergy
        // Food logs keep whole kilocalories; check the range on the value as typed, in its unit.
        let value = field == Field.calories ? kcal.rounded() : kcal
        try ReadingRules.check(field: field, value: kcal)
        var data: [String: FieldValue] = [field: .number(value)]
        if let comment, !comment.isEmpty { data[Field.comments] = .text(comment) }
        let target = try await DevicePicker.pick(device, recording: field, for: opened,
                                                 suggestedType: field == Field.calories ? .calorieTracker : .activityTracker)
        try await opened.service.post(NewMessage(sdid: target.id, ts: time.millisecondsSince1970, data: data))
        let what = field == Field.calories ? "consumed" : "active"
        print("added \(Formatting.number(amount)) \(unit.rawValue) \(what) to \(target.name) at \(LocalTime.format(time, calendar: calendar))")
    }
}
