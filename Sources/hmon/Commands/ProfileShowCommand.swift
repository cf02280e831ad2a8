import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon profile show`: the profile, and the BMR it gives today (or what it lacks).
struct ProfileShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the profile.")

    @OptionGroup var store: StoreOptions

    func run() async throws {
        printEscaped(try await Self.describe(try await StoreOpener(store).open(.readOnly)))
    }

    static func describe(_ opened: OpenedService) async throws -> String {
        let profile = try await opened.service.profile()
        let calendar = Calendar.current
        let now = Date()
        let summary = try await opened.service.energySummary(for: Day(now, in: calendar), now: now, calendar: calendar)
        let user = opened.user
        let contact = [user.fullName, user.email].filter { !$0.isEmpty }.joined(separator: ", ")
        let born = profile.birthDate.map { "\($0) (age \(EnergyCalculator.age(bornOn: $0, on: Day(now, in: calendar))))" }
        let quantities = QuantityText(profile)
        var bmr = "needs " + summary.missing.map(\.rawValue).joined(separator: ", ")
        if case .estimated(let formula, let perDay, _) = summary.restingSource {
            let weight = summary.weightKg.map { " at \(quantities.text($0, .mass))" } ?? ""
            bmr = "\(quantities.text(perDay, .energy))/day (\(formula.displayName)\(weight))"
        } else if summary.restingSource == .recorded {
            bmr = "recorded by a device today"
        }
        let rows: [(String, String)] = [
            ("User", contact.isEmpty ? user.name : "\(user.name) (\(contact))"),
            ("Born", born ?? "not set (hmon profile set --birth-date YYYY-MM-DD)"),
            ("Sex", profile.sex?.rawValue ?? "not set (hmon profile set --sex female|male)"),
            // In feet and inches for a pounds profile, with the centimetres the BMR uses beside them.
            ("Height", profile.heightCm.map { profile.massUnit == .lb
                ? "\(TypedQuantity.heightText(cm: $0, massUnit: .lb)) (\(Formatting.number($0)) cm)" : "\(Formatting.number($0)) cm" }
                ?? "not set (hmon profile set --height \"5 ft 7 in\", or --height-cm CM)"),
            ("Lean mass", profile.leanMassKg.map { quantities.text($0, .mass) } ?? "not set"),
            ("Goal", profile.goalKg.map { quantities.text($0, .mass) }
                ?? "not set (hmon profile set --goal-kg KG)"),
            ("Sleep need", profile.sleepNeedMinutes.map { SleepText.duration($0) + " a night" }
                ?? "8 h a night, the default (hmon profile set --sleep-need-hours HOURS)"),
            ("Units", "\(profile.massUnit.rawValue), \(profile.energyUnit.rawValue)"),
            ("BMR formula", profile.bmrFormula.displayName),
            ("BMR", bmr),
        ]
        return rows.map { "\(($0.0 + ":").padding(toLength: 13, withPad: " ", startingAt: 0))\($0.1)" }.joined(separator: "\n")
    }
}
