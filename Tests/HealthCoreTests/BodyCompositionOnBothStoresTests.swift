import Foundation
import TestSupport
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// The body composition trend as the service reads it from either store: each day's body fat readings from
/// every device, paired with that day's weigh-ins, worked by hand as in `BodyCompositionTrendTests`.
@Suite struct BodyCompositionOnBothStoresTests {
    @Test(arguments: StoreEngine.available)
    func bodyFatFromTwoDevicesPairsWithTheDaysWeighIns(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (_, service) = try await world.user()
        let scale = try await world.device(.withings, named: "Scale", for: service)
        let other = try await world.device(.scale, named: "Gym scale", for: service)
        let berlin = calendar()
        // Nov 1: 80 kg with 24 % on the scale and 26 % on the gym's scale: 25 % (fat 20, lean 60).
        // Nov 2: body fat without a weigh-in, which gives no masses. Nov 3: 78 kg at 24 % (fat 18.72, lean 59.28).
        let readings: [(String, Device, [String: FieldValue])] = [
            ("2026-11-01 07:00", scale, [Field.weight: .number(80), Field.fatRatio: .number(24)]),
            ("2026-11-01 18:00", other, [Field.fatRatio: .number(26)]),
            ("2026-11-02 07:00", other, [Field.fatRatio: .number(30)]),
            ("2026-11-03 07:00", scale, [Field.weight: .number(78), Field.fatRatio: .number(24)]),
        ]
        for (local, device, data) in readings {
            try await service.post(NewMessage(sdid: device.id, ts: date(local, in: berlin).millisecondsSince1970, data: data))
        }
        let series = try await service.weightSeries(days: Day(year: 2026, month: 11, day: 1)...Day(year: 2026, month: 11, day: 3),
                                                    calendar: berlin)
        let weighIns = WeightTrendBuilder.days(series: series).compactMap { day in day.weightKg.map { (day.day, $0) } }
        let trend = try await service.bodyCompositionTrend(weighIns: weighIns, calendar: berlin)
        #expect(trend.map(\.day.description) == ["2026-11-01", "2026-11-02", "2026-11-03"])
        #expect(trend.map { $0.measured?.fatPercent } == [25, nil, 24], "Nov 2's 30 % had no weigh-in beside it")
        // Fat mass 20 → 19.936 → 19.8144; lean 60 → 59.964 → 59.8956 (`BodyCompositionTrendTests`).
        let last = try #require(trend.last)
        #expect(abs(last.trend.fatMassKg - 19.8144) < 1e-9)
        #expect(abs(last.trend.leanMassKg - 59.8956) < 1e-9)
    }
}
