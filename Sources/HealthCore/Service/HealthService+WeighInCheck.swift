import Foundation
import HealthModel

extension HealthService {
    /// Whether a weigh-in of `weightKg` at `date` is far from the trend of the user's weigh-ins before
    /// that day (`WeighInPlausibility`): a likely typo the faces ask about before saving. Nil when it is
    /// near, or when there are too few weigh-ins to judge.
    public func weighInFarFromTrend(weightKg: Double, at date: Date, calendar: Calendar) async throws -> WeighInPlausibility.Far? {
        let day = Day(date, in: calendar)
        let before = day.adding(days: -1)
        let series = try await weightSeries(days: day.adding(days: -WeighInPlausibility.lookbackDays)...before, calendar: calendar)
        let weighIns = series.points.filter { !$0.isCarried }.map { (day: $0.day, kg: $0.kg) }
        return WeighInPlausibility.far(weightKg: weightKg, on: day, weighIns: weighIns)
    }
}
