import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// The one rule for readings: what is refused, what is rounded, what is kept as given.
@Suite struct ReadingRulesTests {
    @Test func integerFieldsAreRoundedAndDecimalFieldsKeptAsPosted() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let watch = try await world.device(.activityTracker, named: "Watch", for: service)
        try await service.post(NewMessage(sdid: watch.id, data: [Field.steps: .number(72.6), Field.heartRate: .number(61.5),
                                                                   Field.activeEnergy: .number(12.34)]))
        let stored = try #require(try await service.lastMessages(device: watch.id, count: 1, field: nil).first)
        #expect(stored.data == [Field.steps: .number(73), Field.heartRate: .number(62), Field.activeEnergy: .number(12.34)])
    }

    @Test func aBatchStoresWhatASinglePostStores() async throws {
        let world = try TestWorld()
        let (user, service) = try await world.user()
        let watch = try await world.device(.activityTracker, named: "Watch", for: service)
        let data: [String: FieldValue] = [Field.steps: .number(999.4), Field.heartRate: .number(70.5)]
        let added = try await world.store.postBatch([NewMessage(sdid: watch.id, ts: 1_000, data: data)], userID: user.id)
        #expect(added == 1)
        let stored = try #require(try await service.lastMessages(device: watch.id, count: 1, field: nil).first)
        #expect(stored.data == [Field.steps: .number(999), Field.heartRate: .number(71)])
    }

    @Test func theRuleRefusesWhatNoFaceMayStore() throws {
        let food = BuiltInDeviceType.calorieTracker.manifest
        let cases: [([String: FieldValue], String)] = [
            ([Field.calories: .number(-5)], "calories -5 kcal is negative"),
            ([Field.calories: .number(50_000)], "calories 50000 kcal is not below 50,000 kcal"),
            ([Field.calories: .number(.infinity)], "calories must be a finite number"),
            ([Field.calories: .text("lots")], "calories must be a number, not text"),
            ([Field.comments: .number(3)], "comments must be text, not a number"),
            (["sugar": .number(3)], "a Calorie Tracker has no field \"sugar\""),
            ([:], "the reading has no data"),
        ]
        for (data, message) in cases {
            let error = #expect(throws: HealthError.self) {
                try ReadingRules.accepted(data, manifest: food, typeName: "Calorie Tracker")
            }
            #expect(error?.message.hasPrefix(message) == true, "\(data): \(String(describing: error))")
        }
        #expect(try ReadingRules.accepted([Field.calories: .number(49_999.5)], manifest: food, typeName: "Calorie Tracker")
                == [Field.calories: .number(49_999.5)])
    }
}
