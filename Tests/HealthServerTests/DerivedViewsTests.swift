import Foundation
import HealthCore
import HealthModel
import HealthServer
import Testing

/// The energy summary and the weight series over a server equal those the local store computes from the
/// same readings: the dashboard shows the same numbers whichever way it reads them.
@Suite struct DerivedViewsOverServerTests {
    @Test func energyAndWeightOverTheServerMatchTheLocalStore() async throws {
        try await ServerWorld.run { world in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
            let local = LocalHealthService(store: world.store, userID: world.alice.id)
            try await local.updateProfile(Profile(birthDate: Day(year: 1988, month: 3, day: 14), sex: .female, heightCm: 168))
            let food = try await local.addDevice(name: "Food log", typeID: BuiltInDeviceType.calorieTracker.deviceType.id)
            let watch = try await local.addDevice(name: "Watch", typeID: BuiltInDeviceType.activityTracker.deviceType.id)
            // Whole milliseconds: the resolution of `now` on the wire, so both sides compute the same part of today.
            let now = Date(millisecondsSince1970: Date().millisecondsSince1970)
            let today = Day(now, in: calendar)
            let start = today.adding(days: -10).start(in: calendar)
            for day in 0..<10 where day % 3 != 1 {  // gaps, so the series carries values forward
                let ts = start.addingTimeInterval(Double(day) * 86_400 + 7 * 3600).millisecondsSince1970
                try await local.post(NewMessage(sdid: world.aliceScale.id, ts: ts, data: [Field.weight: .number(70 + Double(day) / 4)]))
            }
            let morning = today.start(in: calendar).addingTimeInterval(60).millisecondsSince1970
            try await local.post(NewMessage(sdid: food.id, ts: morning, data: [Field.calories: .number(450)]))
            try await local.post(NewMessage(sdid: watch.id, ts: morning + 1000, data: [Field.activeEnergy: .number(120.5)]))

            let remote = try await world.aliceClient()
            let days = today.adding(days: -13)...today
            #expect(try await remote.weightSeries(days: days, calendar: calendar)
                    == (try await local.weightSeries(days: days, calendar: calendar)))
            let remoteEnergy = try await remote.energySummary(for: today, now: now, calendar: calendar)
            #expect(remoteEnergy == (try await local.energySummary(for: today, now: now, calendar: calendar)))
            #expect(remoteEnergy.consumed == 450)
            #expect(remoteEnergy.isComplete)
        }
    }
}
