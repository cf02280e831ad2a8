import Foundation

/// Whether a new or corrected weigh-in is so far from the person's trend that it is more likely a typo
/// (27.2 typed for 72.2) than a weight: the dashboard then asks before saving it, and `hmon add weight`
/// and `hmon reading edit` refuse it without `--force`.
///
/// The bound: a weigh-in is far when it differs from the trend by more than 5 % of the trend *and* by
/// more than 2 kg, plus 1 kg for every week since the newest weigh-in the trend knows.
/// - Day-to-day weight moves with water, food and glycogen by about 1–2 % of body weight, rarely 3 %
///   (The Hacker's Diet, "Signal and Noise"; the trend exists to smooth exactly that), so 5 % is well
///   outside a real morning's swing and still catches the typos that matter: a swapped or wrong tens
///   digit (27.2 or 82.2 for 72.2: 62 % and 14 %), a slipped decimal point (7.22), a weight in the other
///   unit (159 for 72.2 kg). A wrong last digit (73.2 for 72.2, 1.4 %) cannot be told from a real swing,
///   and is not flagged.
/// - 2 kg keeps the bound sane for light people (5 % of 40 kg is 2 kg).
/// - After a gap the weight may really have moved: about 1 kg a week is the fastest loss or gain
///   advised (NHS, CDC: 0.5–1 kg a week), so the bound widens by that much per week of gap.
/// No check without a trend: fewer than `minimumWeighInDays` days of weigh-ins in the
/// `lookbackDays` before the weigh-in's day.
public enum WeighInPlausibility {
    public static let relativeBound = 0.05
    public static let absoluteBoundKg = 2.0
    public static let allowanceKgPerWeek = 1.0
    /// Days with a weigh-in the trend needs before it is trusted to judge one.
    public static let minimumWeighInDays = 2
    /// How far back the trend looks for those weigh-ins.
    public static let lookbackDays = 90

    /// A weigh-in far from the trend, for the question or the refusal.
    public struct Far: Sendable, Equatable {
        public var weightKg: Double
        /// The trend as of the newest weigh-in before the weigh-in's day, kg.
        public var trendKg: Double
        /// How far it may be from the trend before it counts as far, kg.
        public var boundKg: Double

        /// weight − trend, kg: negative when under the trend.
        public var differenceKg: Double { weightKg - trendKg }

        /// "27.2 kg is 45.0 kg under your trend (72.2 kg)", in the person's unit, one decimal.
        public func sentence(in unit: MassUnit) -> String {
            let side = differenceKg < 0 ? "under" : "over"
            return "\(Self.text(unit.fromKg(weightKg))) \(unit.rawValue) is \(Self.text(unit.fromKg(abs(differenceKg)))) \(unit.rawValue) "
                + "\(side) your trend (\(Self.text(unit.fromKg(trendKg))) \(unit.rawValue))"
        }

        private static func text(_ value: Double) -> String { String(format: "%.1f", value) }
    }

    /// Far or not, as worked out from the person's earlier weigh-ins.
    /// - Parameters:
    ///   - weightKg: the weigh-in to judge.
    ///   - day: its local day.
    ///   - weighIns: the person's weigh-ins (one average per day, any order); those on `day` or later,
    ///     or more than `lookbackDays` before it, are left out, so a corrected weigh-in is never judged
    ///     against a trend it pulled itself.
    /// - Returns: nil when it is near enough, or when there is no trend to judge it by.
    public static func far(weightKg: Double, on day: Day, weighIns: [(day: Day, kg: Double)]) -> Far? {
        let earliest = day.ordinal - lookbackDays
        let earlier = weighIns.filter { $0.day.ordinal < day.ordinal && $0.day.ordinal >= earliest }
        guard earlier.count >= minimumWeighInDays else { return nil }
        let trend = WeightTrendBuilder.days(weighIns: earlier)
        guard let last = trend.last else { return nil }
        let weeksSince = Double(day.ordinal - last.day.ordinal) / 7
        let bound = max(relativeBound * last.trendKg, absoluteBoundKg) + allowanceKgPerWeek * weeksSince
        guard abs(weightKg - last.trendKg) > bound else { return nil }
        return Far(weightKg: weightKg, trendKg: last.trendKg, boundKg: bound)
    }
}
