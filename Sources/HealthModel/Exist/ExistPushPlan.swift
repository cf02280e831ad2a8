import Foundation

/// What `hmon exist push` sends: for each day, the values Exist's own Apple Health sync would send.
///
/// - `weight`: the day's average weigh-in, else the last weight carried forward up to 30 days (Exist
///   expects a weight every day); nothing after 30 days without a weigh-in. This is `DailyAttributes`'
///   weight, the one the insights use.
/// - `body_fat` (0–1), `active_energy` and `energy` (food eaten, both kJ), `heartrate_variability` (ms):
///   on days that have them.
/// - `welltory_stress` is left out: hmon's stress is Welltory's measured score 0–1, while Exist's is a
///   self-rating on a 1–9 scale; stretching one onto the other would pass a measurement off as a mood.
public enum ExistPushPlan {
    public static let attributes: [InsightAttribute] = [.weight, .bodyFat, .activeEnergy, .energy, .heartRateVariability]

    public struct Value: Sendable, Equatable {
        public var attribute: InsightAttribute
        public var day: Day
        /// In Exist's units, rounded as sent.
        public var value: Double
    }

    /// Every value of `days`, day by day, in Exist's units: integers whole, decimals to 3 places (grams,
    /// a tenth of a per cent, a kJ), so what was sent compares equal to what is sent next time.
    public static func values(_ daily: DailyAttributes, days: ClosedRange<Day>) -> [Value] {
        var values: [Value] = []
        for ordinal in days.lowerBound.ordinal...days.upperBound.ordinal {
            let day = Day(ordinal: ordinal)
            for attribute in attributes {
                guard let v = daily.value(attribute, on: day) else { continue }
                values.append(Value(attribute: attribute, day: day, value: rounded(attribute, attribute.existValue(v))))
            }
        }
        return values
    }

    static func rounded(_ attribute: InsightAttribute, _ value: Double) -> Double {
        attribute.existValueType == 0 ? value.rounded() : (value * 1000).rounded() / 1000
    }

    /// The values not sent before with the same value: `sent` is per attribute name and day what the
    /// server last accepted.
    public static func changed(_ values: [Value], sent: [String: [String: Double]]) -> [Value] {
        values.filter { sent[$0.attribute.name]?[$0.day.description] != $0.value }
    }
}
