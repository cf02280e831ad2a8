// Imports nothing: what a shipped migration wrote cannot be read from today's kinds, manifests or names.

/// The built-in device types and their fields as the shipped migrations write them into a store
/// (`device_types`, `device_type_fields`), as literals, one description for both engines (`Schema`,
/// `PostgresSchema`).
///
/// Frozen: editing a kind's wording, unit or type in `ReadingKind`'s table changes nothing here, so a store's
/// stored manifests change only by a new migration (an `UPDATE` of the rows, or fields appended here under
/// its version), on both engines; `ShippedDeviceTypesTests` fails until today's manifests and what a new store
/// ends with agree again. The first schema's types, the HRV meter (v4) and the generic scale (v13) are
/// written as they stood when the migrations were frozen: a store made before then got fewer fields from
/// them and the later versions' appended fields, skipping any a store has, bring it to the same set (in
/// another order of `position`, which nothing reads as meaning).
package enum ShippedDeviceTypes {
    /// A device type's row and its fields in their stored order.
    package struct TypeRow: Sendable, Equatable {
        package let id: String
        package let name: String
        package let uniqueName: String
        package let description: String?
        package let latestVersion: Int
        package let fields: [FieldRow]
    }

    /// A field's row: `type` is `Double`, `Integer` or `String`, as the column's check allows.
    package struct FieldRow: Sendable, Equatable {
        package let name: String
        package let type: String
        package let unit: String?
        package let description: String

        init(_ name: String, _ type: String, _ unit: String?, _ description: String) {
            self.name = name
            self.type = type
            self.unit = unit
            self.description = description
        }
    }

    /// A field a later version appends to a type's stored fields, after those it has, unless it has it.
    package struct AppendedField: Sendable, Equatable {
        package let dtid: String
        package let field: FieldRow

        init(_ dtid: String, _ field: FieldRow) {
            self.dtid = dtid
            self.field = field
        }
    }

    /// The types the first migration writes.
    package static let firstSchema = [withings, calorieTracker, activityTracker]

    /// The fields schema `version` appends to the stored types (none for most versions).
    package static func appended(inSchema version: Int) -> [AppendedField] { appended[version] ?? [] }

    // The types' ids, as the SAMI platform's and hmon's first stores gave them.
    package static let withingsID = "dt29673f0481b4401bb73a622353b96150"
    package static let calorieTrackerID = "dt6c2bd3f4a0e14c0f9d1b7e52a8c4f310"
    package static let activityTrackerID = "dt0b3e9f5d7c8a4e21b6f4a1d2c3e5f708"
    package static let hrvMeterID = "dt4a7c1e9b3d2f4e6a8b0c5d7e9f1a3b52"
    package static let scaleID = "dt8e2f6a1c4b9d4f07a3e5c2b1d6f8a904"

    // v1 writes these three, each with every field it had when the migrations were frozen.
    package static let withings = TypeRow(
        id: withingsID, name: "Withings Device", uniqueName: "withings_device",
        description: "A Withings scale: weight and body composition", latestVersion: 1, fields: [
        FieldRow("weight", "Double", "kg", "weight"),
        FieldRow("height", "Double", "m", "height"),
        FieldRow("fatFreeMass", "Double", "kg", "fatFreeMass"),
        FieldRow("fatRatio", "Double", "%", "fatRatio"),
        FieldRow("fatMassWeight", "Double", "kg", "fatMassWeight"),
        FieldRow("muscleMass", "Double", "kg", "muscleMass"),
        FieldRow("boneMass", "Double", "kg", "boneMass"),
        FieldRow("hydration", "Double", "kg", "hydration"),
        FieldRow("heartRate", "Integer", "b/min", "heartRate"),
        FieldRow("bodyWaterPercentage", "Double", "%", "bodyWaterPercentage"),
        FieldRow("systolic", "Integer", "mmHg", "systolic blood pressure"),
        FieldRow("diastolic", "Integer", "mmHg", "diastolic blood pressure"),
        FieldRow("oxygenSaturation", "Double", "%", "blood oxygen saturation (SpO2)"),
        FieldRow("bodyTemperature", "Double", "°C", "body temperature"),
        FieldRow("source", "String", nil, "where the reading came from"),
    ])

    package static let calorieTracker = TypeRow(
        id: calorieTrackerID, name: "Calorie Tracker", uniqueName: "calorie_tracker",
        description: "A food log: energy consumed", latestVersion: 1, fields: [
        FieldRow("calories", "Double", "kcal", "energy consumed"),
        FieldRow("comments", "String", nil, "what was eaten"),
        FieldRow("source", "String", nil, "where the reading came from"),
    ])

    package static let activityTracker = TypeRow(
        id: activityTrackerID, name: "Activity Tracker", uniqueName: "activity_tracker",
        description: "A watch or phone: active and resting energy, steps, heart rate", latestVersion: 1, fields: [
        FieldRow("activeEnergy", "Double", "kcal", "active energy burned"),
        FieldRow("basalEnergy", "Double", "kcal", "resting energy burned"),
        FieldRow("steps", "Integer", nil, "steps"),
        FieldRow("distance", "Double", "m", "distance"),
        FieldRow("heartRate", "Integer", "b/min", "heartRate"),
        FieldRow("hrvSDNN", "Double", "ms", "heart rate variability (SDNN)"),
        FieldRow("restingHeartRate", "Integer", "b/min", "resting heart rate"),
        FieldRow("sleepMinutes", "Double", "min", "time asleep in a night"),
        FieldRow("inBedMinutes", "Double", "min", "time in bed in a night"),
        FieldRow("deepSleepMinutes", "Double", "min", "deep sleep in a night"),
        FieldRow("remSleepMinutes", "Double", "min", "REM sleep in a night"),
        FieldRow("coreSleepMinutes", "Double", "min", "core (light) sleep in a night"),
        FieldRow("awakeMinutes", "Double", "min", "time awake in a night"),
        FieldRow("readinessScore", "Integer", nil, "readiness score for the day, 0–100 (Oura)"),
        FieldRow("systolic", "Integer", "mmHg", "systolic blood pressure"),
        FieldRow("diastolic", "Integer", "mmHg", "diastolic blood pressure"),
        FieldRow("oxygenSaturation", "Double", "%", "blood oxygen saturation (SpO2)"),
        FieldRow("respiratoryRate", "Double", "breaths/min", "respiratory rate"),
        FieldRow("bodyTemperature", "Double", "°C", "body temperature"),
        FieldRow("skinTemperatureChange", "Double", "°C", "skin temperature change from baseline"),
        FieldRow("source", "String", nil, "where the reading came from"),
        FieldRow("sleepWindow", "Double", "min", "minutes from the night's first stretch to its end"),
        FieldRow("hypnogram", "String", nil, "the night's stages a minute at a time, as runs (offset in minutes and stage letter)"),
    ])

    // v4 writes the HRV meter, as it stood when the migrations were frozen.
    package static let hrvMeter = TypeRow(
        id: hrvMeterID, name: "HRV Meter", uniqueName: "hrv_meter",
        description: "Heart rate variability: Welltory's camera measurements or a watch's beats", latestVersion: 1, fields: [
        FieldRow("stress", "Double", nil, "stress, 0–1 (Welltory)"),
        FieldRow("energy", "Double", nil, "energy, 0–1 (Welltory)"),
        FieldRow("productivity", "Double", nil, "productivity, 0–1 (Welltory)"),
        FieldRow("rmssd", "Double", "ms", "RMSSD"),
        FieldRow("sdnn", "Double", "ms", "SDNN"),
        FieldRow("totalPower", "Double", "ms²", "total power"),
        FieldRow("lfPower", "Double", "ms²", "LF power, 0.04–0.15 Hz"),
        FieldRow("hfPower", "Double", "ms²", "HF power, 0.15–0.4 Hz"),
        FieldRow("pnn50", "Double", "%", "pNN50"),
        FieldRow("stressIndex", "Double", nil, "Baevsky's stress index"),
        FieldRow("heartRate", "Integer", "b/min", "heartRate"),
        FieldRow("shareToken", "String", nil, "Welltory share token"),
        FieldRow("stressColor", "String", nil, "green, yellow, red or unknown"),
        FieldRow("energyColor", "String", nil, "green, yellow, red or unknown"),
        FieldRow("productivityColor", "String", nil, "green, yellow, red or unknown"),
        FieldRow("source", "String", nil, "welltory, beats or manual"),
        FieldRow("appleSDNN", "Double", "ms", "SDNN as Apple Health recorded it"),
        FieldRow("beatsRefused", "String", nil, "why hmon refused the record's beat list"),
        FieldRow("samples", "Integer", nil, "measurements the RMSSD is the mean of"),
    ])

    // v13 writes the generic scale, as it stood when the migrations were frozen.
    package static let scale = TypeRow(
        id: scaleID, name: "Scale", uniqueName: "scale",
        description: "Any bathroom scale: weight, and body composition when it measures it", latestVersion: 1, fields: [
        FieldRow("weight", "Double", "kg", "weight"),
        FieldRow("height", "Double", "m", "height"),
        FieldRow("fatFreeMass", "Double", "kg", "fatFreeMass"),
        FieldRow("fatRatio", "Double", "%", "fatRatio"),
        FieldRow("fatMassWeight", "Double", "kg", "fatMassWeight"),
        FieldRow("muscleMass", "Double", "kg", "muscleMass"),
        FieldRow("boneMass", "Double", "kg", "boneMass"),
        FieldRow("hydration", "Double", "kg", "hydration"),
        FieldRow("heartRate", "Integer", "b/min", "heartRate"),
        FieldRow("bodyWaterPercentage", "Double", "%", "bodyWaterPercentage"),
        FieldRow("source", "String", nil, "where the reading came from"),
    ])

    /// By schema version; SQLite's v11 (the Withings type's `source`) is in PostgreSQL's first schema, so only SQLite reads it.
    private static let appended: [Int: [AppendedField]] = [
        8: [
            AppendedField(activityTrackerID, FieldRow("restingHeartRate", "Integer", "b/min", "resting heart rate")),
        ],
        11: [
            AppendedField(withingsID, FieldRow("source", "String", nil, "where the reading came from")),
        ],
        19: [
            AppendedField(hrvMeterID, FieldRow("appleSDNN", "Double", "ms", "SDNN as Apple Health recorded it")),
            AppendedField(hrvMeterID, FieldRow("beatsRefused", "String", nil, "why hmon refused the record's beat list")),
        ],
        21: [
            AppendedField(withingsID, FieldRow("bodyWaterPercentage", "Double", "%", "bodyWaterPercentage")),
            AppendedField(scaleID, FieldRow("bodyWaterPercentage", "Double", "%", "bodyWaterPercentage")),
        ],
        22: [
            AppendedField(activityTrackerID, FieldRow("sleepMinutes", "Double", "min", "time asleep in a night")),
            AppendedField(activityTrackerID, FieldRow("inBedMinutes", "Double", "min", "time in bed in a night")),
            AppendedField(activityTrackerID, FieldRow("deepSleepMinutes", "Double", "min", "deep sleep in a night")),
            AppendedField(activityTrackerID, FieldRow("remSleepMinutes", "Double", "min", "REM sleep in a night")),
            AppendedField(activityTrackerID, FieldRow("coreSleepMinutes", "Double", "min", "core (light) sleep in a night")),
            AppendedField(activityTrackerID, FieldRow("awakeMinutes", "Double", "min", "time awake in a night")),
        ],
        23: [
            AppendedField(activityTrackerID, FieldRow("readinessScore", "Integer", nil, "readiness score for the day, 0–100 (Oura)")),
        ],
        26: [
            AppendedField(hrvMeterID, FieldRow("samples", "Integer", nil, "measurements the RMSSD is the mean of")),
        ],
        28: [
            AppendedField(calorieTrackerID, FieldRow("source", "String", nil, "where the reading came from")),
            AppendedField(activityTrackerID, FieldRow("source", "String", nil, "where the reading came from")),
        ],
        31: [
            AppendedField(activityTrackerID, FieldRow("sleepWindow", "Double", "min", "minutes from the night's first stretch to its end")),
            AppendedField(activityTrackerID, FieldRow(
                "hypnogram", "String", nil, "the night's stages a minute at a time, as runs (offset in minutes and stage letter)")),
        ],
        32: [
            AppendedField(activityTrackerID, FieldRow("systolic", "Integer", "mmHg", "systolic blood pressure")),
            AppendedField(withingsID, FieldRow("systolic", "Integer", "mmHg", "systolic blood pressure")),
            AppendedField(activityTrackerID, FieldRow("diastolic", "Integer", "mmHg", "diastolic blood pressure")),
            AppendedField(withingsID, FieldRow("diastolic", "Integer", "mmHg", "diastolic blood pressure")),
            AppendedField(activityTrackerID, FieldRow("oxygenSaturation", "Double", "%", "blood oxygen saturation (SpO2)")),
            AppendedField(withingsID, FieldRow("oxygenSaturation", "Double", "%", "blood oxygen saturation (SpO2)")),
            AppendedField(activityTrackerID, FieldRow("respiratoryRate", "Double", "breaths/min", "respiratory rate")),
            AppendedField(activityTrackerID, FieldRow("bodyTemperature", "Double", "°C", "body temperature")),
            AppendedField(withingsID, FieldRow("bodyTemperature", "Double", "°C", "body temperature")),
            AppendedField(activityTrackerID, FieldRow("skinTemperatureChange", "Double", "°C", "skin temperature change from baseline")),
        ],
    ]
}
