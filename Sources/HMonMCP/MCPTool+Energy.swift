import Foundation
import HealthModel
import SAMIContract

extension MCPTool {
    /// The most days one call spans: the `energy` view's own limit.
    static let maxEnergyDays = 366

    /// The `energy` view of `hmon serve` for a day or a span, and a line a day in the person's energy unit.
    static let energy = MCPTool(
        name: "energy",
        description: """
            The energy balance of a day, or of each day of a span: food consumed, active and resting energy, and \
            net (consumed − active − resting; absent while the profile lacks what the BMR needs, named in \
            "missing"). JSON as hmon serve's energy view gives it ({"days": [{day, active, consumed, resting, net, \
            restingSource, missing, weightKg}]}), energy in kcal; today counts the resting energy of the part of \
            the day gone by. The text beside it is in the person's energy unit. Give `day`, or `from` and `to` \
            (at most 366 days); nothing means today.
            """,
        arguments: ArgumentSchema([
            ArgumentSchema.day("day", "One day, YYYY-MM-DD (default today). Not with from/to."),
            ArgumentSchema.day("from", "The span's first day, YYYY-MM-DD (with to)."),
            ArgumentSchema.day("to", "The span's last day, YYYY-MM-DD, included (with from)."),
        ]),
        answer: { arguments, reader in
            let now = reader.now()
            let days = try energyDays(arguments, today: Day(now, in: reader.calendar))
            let summaries = try await reader.service.energySummaries(for: days, now: now, calendar: reader.calendar)
            let units = QuantityText(try await reader.service.profile())
            let lines = summaries.map { summary in
                "\(summary.day): consumed \(units.text(summary.consumed, .energy)), active \(units.text(summary.active, .energy)), "
                    + "resting \(summary.resting.map { units.text($0, .energy) } ?? "—"), "
                    + "net \(summary.net.map { units.text($0, .energy, signed: true) } ?? "— (the profile lacks \(summary.missing.map(\.rawValue).joined(separator: ", ")))")"
            }
            return MCPAnswer(json: try ViewJSON.data(HMonViews.EnergyView(summaries)), text: lines.joined(separator: "\n"))
        })

    /// `day`, or `from`…`to`, or today.
    static func energyDays(_ arguments: ToolArguments, today: Day) throws -> ClosedRange<Day> {
        let day = try arguments.day("day"), from = try arguments.day("from"), to = try arguments.day("to")
        if let day {
            guard from == nil, to == nil else { throw ToolRefusal("give day, or from and to, not both") }
            return day...day
        }
        switch (from, to) {
        case (nil, nil): return today...today
        case let (from?, to?):
            guard from <= to else { throw ToolRefusal("to (\(to)) must not be before from (\(from))") }
            guard from.days(to: to) < maxEnergyDays else {
                throw ToolRefusal("from…to spans \(from.days(to: to) + 1) days: at most \(maxEnergyDays) a call")
            }
            return from...to
        default: throw ToolRefusal("give both from and to, or day")
        }
    }
}
