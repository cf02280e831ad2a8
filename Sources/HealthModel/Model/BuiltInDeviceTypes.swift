import Foundation

/// The device types every store ships with: scales, a food log, an activity tracker and an HRV meter.
///
/// The Withings id is the one the SAMI platform used, so readings exported from it keep their type. The
/// generic scale is what a person who owns no Withings gets at first run: the same fields, an honest name.
public enum BuiltInDeviceType: CaseIterable, Sendable {
    case withings, calorieTracker, activityTracker, hrvMeter, scale

    /// The types the first migration created. Fixed here so that adding a type never changes what a
    /// shipped migration does: later types are added by their own migration.
    package static let inFirstSchema: [BuiltInDeviceType] = [.withings, .calorieTracker, .activityTracker]

    public var deviceType: DeviceType {
        switch self {
        case .withings:
            DeviceType(id: "dt29673f0481b4401bb73a622353b96150", name: "Withings Device", uniqueName: "withings_device",
                       description: "A Withings scale: weight and body composition")
        case .calorieTracker:
            DeviceType(id: "dt6c2bd3f4a0e14c0f9d1b7e52a8c4f310", name: "Calorie Tracker", uniqueName: "calorie_tracker",
                       description: "A food log: energy consumed")
        case .activityTracker:
            DeviceType(id: "dt0b3e9f5d7c8a4e21b6f4a1d2c3e5f708", name: "Activity Tracker", uniqueName: "activity_tracker",
                       description: "A watch or phone: active and resting energy, steps, heart rate")
        case .hrvMeter:
            DeviceType(id: "dt4a7c1e9b3d2f4e6a8b0c5d7e9f1a3b52", name: "HRV Meter", uniqueName: "hrv_meter",
                       description: "Heart rate variability: Welltory's camera measurements or a watch's beats")
        case .scale:
            DeviceType(id: "dt8e2f6a1c4b9d4f07a3e5c2b1d6f8a904", name: "Scale", uniqueName: "scale",
                       description: "Any bathroom scale: weight, and body composition when it measures it")
        }
    }

    public var manifest: Manifest {
        switch self {
        case .withings, .scale:
            Manifest(fields: kindFields(firstSchema: [.weight, .height, .leanMass, .bodyFat, .fatMass, .muscleMass, .boneMass,
                                                      .hydration, .heartRate])
                     // Since v11: imports put every source's weigh-ins on one scale and keep the source here.
                     + [Self.sourceField])
        case .calorieTracker:
            Manifest(fields: kindFields(firstSchema: [.dietaryEnergy])
                     + [FieldSpec(name: Field.comments, type: .string, unit: nil, description: "what was eaten")]
                     // Since v28: the app and device a pushed meal came from, as a weigh-in's.
                     + [Self.sourceField])
        case .activityTracker:
            Manifest(fields: kindFields(firstSchema: [.activeEnergy, .basalEnergy, .steps, .distance, .heartRate,
                                                      .heartRateVariability])
                     // Since v28: the app and device a pushed day's steps or energy came from.
                     + [Self.sourceField]
                     // Since v31: a night's window and its stages against the clock.
                     + SleepFields.specs)
        case .hrvMeter:
            HRVFields.manifest
        }
    }

    /// Where a reading came from ("openScale · Health Connect"), as the payload named it.
    static let sourceField = FieldSpec(name: Field.source, type: .string, unit: nil, description: "where the reading came from")

    /// The fields of the kinds (`ReadingKind.deviceTypes`) this type carries: those of its first schema in
    /// the order they were stored in then, and after them every kind added since, in table order.
    private func kindFields(firstSchema: [ReadingKind]) -> [FieldSpec] {
        let added = ReadingKind.allCases.filter { $0.deviceTypes.contains(self) && !firstSchema.contains($0) }
        return (firstSchema + added).map(\.fieldSpec)
    }
}
