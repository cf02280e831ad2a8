import Foundation
import HealthCore
import HealthModel
import SQLiteStorage

/// Fills a store with a large, regular data set: 5 devices, readings evenly spread, ending now.
enum BenchmarkData {
    static let userName = "bench"

    static func fill(_ store: LocalStore, readings: Int, endingAt now: Date) async throws {
        let user = try await store.createUser(NewAccount(name: userName, fullName: "Benchmark", password: "benchmark"))
        try await store.updateProfile(Profile(birthDate: Day(iso: "1985-06-15"), sex: .male, heightCm: 181), userID: user.id)
        let kinds: [(BuiltInDeviceType, String, (Int) -> [String: FieldValue])] = [
            (.withings, "Scale", { i in [Field.weight: .number(80 + Double(i % 50) / 10), ReadingKind.bodyFat.field: .number(22)] }),
            (.activityTracker, "Watch", { i in [Field.activeEnergy: .number(Double(i % 40)), Field.steps: .number(Double(i % 900))] }),
            (.calorieTracker, "Food log", { i in [Field.calories: .number(Double(100 + i % 500)), Field.comments: .text("meal")] }),
            (.activityTracker, "Phone", { i in [Field.steps: .number(Double(i % 700)), Field.distance: .number(Double(i % 500))] }),
            (.withings, "Travel scale", { i in [Field.weight: .number(80.5 + Double(i % 30) / 10)] }),
        ]
        var devices: [(Device, (Int) -> [String: FieldValue])] = []
        for (type, name, data) in kinds {
            devices.append((try await store.addDevice(name: name, typeID: type.deviceType.id, userID: user.id), data))
        }
        // Each device gets readings/5, every `spacing` ms, so all of them reach back the same ~2 years.
        let perDevice = readings / devices.count
        let span: Int64 = 2 * 365 * 86_400_000
        let spacing = max(1, span / Int64(perDevice))
        let end = now.millisecondsSince1970
        let batch = 50_000
        var batchStart = 0
        while batchStart < perDevice {
            let range = batchStart..<min(perDevice, batchStart + batch)
            var messages: [NewMessage] = []
            messages.reserveCapacity(range.count * devices.count)
            for (index, (device, data)) in devices.enumerated() {
                for i in range {
                    messages.append(NewMessage(sdid: device.id, ts: end - Int64(i) * spacing - Int64(index) * 997, data: data(i)))
                }
            }
            try await store.postBatch(messages, userID: user.id, now: now)
            batchStart = range.upperBound
        }
    }
}
