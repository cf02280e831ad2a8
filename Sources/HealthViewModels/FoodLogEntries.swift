import Foundation
import HealthCore
import HealthModel

/// One row of the day's food log on the energy screen: "12:31  Banana  105 kcal".
public struct FoodEntry: Sendable, Equatable {
    public var id: String
    /// "12:31".
    public var time: String
    /// What was eaten as written, or "—" when nothing was.
    public var what: String
    /// "105 kcal" in the profile's unit.
    public var energy: String
    /// The energy as `e`'s prompt holds it for correcting: "105", in the profile's unit.
    public var typedEnergy: String
    /// What was eaten, as written ("" when nothing was): `e`'s second step starts from it.
    public var description: String
    /// Where the meal came from, as the pushing app named it ("MyFitnessPal · Health Connect"); "" for one
    /// typed here.
    public var source: String = ""
}

/// The food log entries of a day as rows, and what the person wrote in their logs lately (for `a` to offer).
enum FoodLogEntries {
    /// Each description once (the newest spelling of it), newest first.
    static func descriptions(newestFirst messages: [Message]) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for message in messages.sorted(by: { $0.ts > $1.ts }) {
            guard case .text(let raw)? = message.data[Field.comments] else { continue }
            let text = raw.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty, seen.insert(text.lowercased()).inserted else { continue }
            out.append(text)
        }
        return out
    }

    static func rows(_ messages: [Message], unit: EnergyUnit, calendar: Calendar) -> [FoodEntry] {
        messages.map { message in
            let parts = DateText.parts(of: message.date, in: calendar)
            let kcal = message.data[Field.calories]?.number ?? 0
            var what = "—", description = ""
            if case .text(let text)? = message.data[Field.comments], !text.isEmpty {
                what = text.prefix(1).uppercased() + text.dropFirst()
                description = text
            }
            let typed = unit.fromKcal(kcal)
            return FoodEntry(id: message.mid, time: "\(parts.hh):\(parts.mm)", what: what,
                             energy: "\(Formats.whole(typed)) \(unit.rawValue)",
                             typedEnergy: typed == typed.rounded() ? CNumberText.fixed(typed, decimals: 0) : Formats.oneDecimal(typed),
                             description: description, source: message.data[Field.source]?.textValue ?? "")
        }
    }
}
