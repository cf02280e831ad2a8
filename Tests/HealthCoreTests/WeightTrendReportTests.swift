import Foundation
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// The trend report as the service gathers it from a real store: every device's weigh-ins, food logs.
@Suite struct WeightTrendReportTests {
    @Test func twoScalesMakeOneTrendAndAFlatMonthOnTwoThousandLearnsTwoThousand() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        try await service.updateProfile(Profile(birthDate: Day(iso: "1990-01-31"), sex: .female, heightCm: 168, goalKg: 65))
        let bathroom = try await world.device(.withings, named: "Bathroom", for: service)
        let gym = try await world.device(.withings, named: "Gym", for: service)
        let food = try await world.device(.calorieTracker, named: "Food", for: service)
        let cal = calendar()
        let now = date("2026-11-30 20:00", in: cal)
        func post(_ device: Device, _ time: String, _ data: [String: FieldValue]) async throws {
            try await world.store.post(NewMessage(sdid: device.id, ts: date(time, in: cal).millisecondsSince1970, data: data),
                                       userID: device.uid, now: now)
        }
        // November 1–29 at 70 kg, the scales taking turns; on the 30th both: 70 and 71 average 70.5.
        for day in 1...29 {
            try await post(day % 2 == 0 ? bathroom : gym, String(format: "2026-11-%02d 07:00", day), ["weight": .number(70)])
        }
        try await post(bathroom, "2026-11-30 07:00", ["weight": .number(70)])
        try await post(gym, "2026-11-30 08:00", ["weight": .number(71)])
        // Food logged on the 20 days before today at 2,000 kcal; today's partial log is left out.
        for day in 10...29 { try await post(food, String(format: "2026-11-%02d 12:00", day), ["calories": .number(2000)]) }
        try await post(food, "2026-11-30 12:00", ["calories": .number(300)])

        let report = try await service.weightTrendReport(now: now, calendar: cal)
        #expect(report.days.count == 30)
        #expect(report.days.first?.day == Day(year: 2026, month: 11, day: 1))
        #expect(report.days.last?.weightKg == 70.5)
        // 70 + 0.1 × (70.5 − 70) = 70.05.
        #expect(abs((report.summary?.trendKg ?? 0) - 70.05) < 1e-9)
        #expect(report.summary?.latestWeighInKg == 70.5)
        // The window (Nov 2 – Nov 29, the 28 days before today) holds 28 weigh-in days and 20 food days; the trend there is flat at 70.
        #expect(report.expenditure == .learned(kcalPerDay: 2000, foodDays: 20, weighInDays: 28))
        #expect(report.formulaKcalPerDay != nil)
        // 70.05 is 5.05 kg above the goal while the trend rises: no date.
        #expect(report.summary?.goal == .notApproaching)
    }

    @Test func noWeighInsGiveNoSummary() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let report = try await service.weightTrendReport(now: date("2026-11-30 20:00"), calendar: calendar())
        #expect(report.days.isEmpty)
        #expect(report.summary == nil)
        #expect(report.expenditure == .needsMoreData(foodDays: 0, weighInDays: 0))
    }
}
