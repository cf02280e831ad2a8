import Foundation

extension Field {
    public static let fatFreeMass = "fatFreeMass"
    public static let fatRatio = "fatRatio"
    public static let fatMassWeight = "fatMassWeight"
    public static let muscleMass = "muscleMass"
    public static let boneMass = "boneMass"
    public static let hydration = "hydration"
    public static let heartRate = "heartRate"
    public static let restingHeartRate = "restingHeartRate"
    public static let comments = "comments"
    public static let steps = "steps"
    public static let distance = "distance"
    public static let sleepMinutes = "sleepMinutes"
    public static let inBedMinutes = "inBedMinutes"
    public static let deepSleepMinutes = "deepSleepMinutes"
    public static let remSleepMinutes = "remSleepMinutes"
    public static let coreSleepMinutes = "coreSleepMinutes"
    public static let awakeMinutes = "awakeMinutes"
    public static let readinessScore = "readinessScore"
    public static let oxygenSaturation = "oxygenSaturation"
    public static let respiratoryRate = "respiratoryRate"
    public static let bodyTemperature = "bodyTemperature"
    public static let skinTemperatureChange = "skinTemperatureChange"
    public static let systolic = "systolic"
    public static let diastolic = "diastolic"
}

/// Units the exports write masses, energies and intervals in, each with the factor to hmon's unit.
private enum SourceUnits {
    static let kilograms: [String: Double] = ["kg": 1, "lb": MassUnit.kgPerPound, "lbs": MassUnit.kgPerPound, "g": 0.001,
                                              "st": 14 * MassUnit.kgPerPound]
    static let centimetres: [String: Double] = ["cm": 1, "m": 100, "mm": 0.1, "in": 2.54, "ft": 30.48]
    /// Apple writes food energy as "Cal", i.e. kcal. Kilojoules are divided, not multiplied (`UnitConversion`).
    static let kilocalories: [String: Double] = ["kcal": 1, "Cal": 1, "kJ": 1 / EnergyUnit.kJPerKcal, "cal": 0.001]
    static let milliseconds: [String: Double] = ["ms": 1, "s": 1000]
    /// Health Connect writes a basal metabolic rate as a power (HC Webhook sends watts): 1 W for a day is
    /// 86 400 J, in kcal.
    static let kcalPerDayPerWatt = 86_400 / (1000 * EnergyUnit.kJPerKcal)
    /// Blood pressure as every source writes it.
    static let millimetresOfMercury: [String: Double] = ["mmHg": 1]
    /// Temperatures in °C; Fahrenheit is converted by its formula, not a factor (`UnitConversion`).
    static let celsius: [String: Double] = ["degC": 1, "°C": 1, "degF": 1, "°F": 1]
    /// Health Auto Export writes a night's figures in hours.
    static let minutes: [String: Double] = ["min": 1, "hr": 60, "h": 60]
}

extension ReadingKind {
    // The order is the order import summaries list kinds in, and the order of the per-day slots.
    public static let allCases: [ReadingKind] = [
        .weight, .height, .activeEnergy, .basalEnergy, .dietaryEnergy, .heartRateVariability, .steps, .restingHeartRate,
        .bodyFat, .leanMass, .heartRateVariabilityFromBeats, .heartRateVariabilityBeatsRefused,
        .fatMass, .muscleMass, .boneMass, .hydration, .heartRate, .distance, .sdnn, .stress, .bodyWaterPercentage,
        .sleep, .timeInBed, .deepSleep, .remSleep, .coreSleep, .sleepAwake, .readiness,
        .bloodPressureSystolic, .bloodPressureDiastolic, .oxygenSaturation, .respiratoryRate, .bodyTemperature, .skinTemperatureChange,
    ]

    public static let weight = ReadingKind(
        name: "weight", field: Field.weight, label: "Weight", unit: "kg", quantity: .mass, range: 1...650,
        day: .mean, insight: .weight, writtenByExist: true, deviceTypes: [.withings, .scale],
        imported: ImportedKind(one: "weight", many: "weights", unit: "kg", range: 1...650),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierBodyMass", units: SourceUnits.kilograms),
                  .healthAutoExport: SourceName("weight_body_mass", units: SourceUnits.kilograms),
                  .healthConnect: SourceName("weight", units: ["kilograms": 1])],
        withings: WithingsMeasureType(meastype: 1))

    /// Imported into the profile (in cm), stored on a scale in m.
    public static let height = ReadingKind(
        name: "height", field: Field.height, label: "Height", unit: "m", quantity: nil, range: 0.3...3.0,
        deviceTypes: [.withings, .scale],
        imported: ImportedKind(one: "height", many: "heights", unit: "cm", range: 30...300),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierHeight", units: SourceUnits.centimetres)])

    public static let activeEnergy = ReadingKind(
        name: "activeEnergy", field: Field.activeEnergy, label: "Active", unit: "kcal",
        manifestDescription: "active energy burned", quantity: .energy, range: nil,
        day: .sum, insight: .activeEnergy, writtenByExist: true, deviceTypes: [.activityTracker],
        imported: ImportedKind(one: "active energy", unit: "kcal", range: 0...50_000),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierActiveEnergyBurned", units: SourceUnits.kilocalories),
                  .healthAutoExport: SourceName("active_energy", units: SourceUnits.kilocalories),
                  .healthConnect: SourceName("active_calories", units: ["calories": 1])])

    /// Recorded resting energy: the insights' resting energy takes it, else the profile's BMR.
    public static let basalEnergy = ReadingKind(
        name: "basalEnergy", field: Field.basalEnergy, label: "Resting", unit: "kcal",
        manifestDescription: "resting energy burned", quantity: .energy, range: nil,
        day: .sum, deviceTypes: [.activityTracker],
        imported: ImportedKind(one: "resting energy", unit: "kcal", range: 0...50_000),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierBasalEnergyBurned", units: SourceUnits.kilocalories),
                  .healthAutoExport: SourceName("basal_energy_burned", units: SourceUnits.kilocalories),
                  // A rate, kept as the day's resting energy: one reading a day (`HealthConnectPayload`).
                  .healthConnect: SourceName("basal_metabolic_rate", units: ["kilocalories_per_day": 1, "watts": SourceUnits.kcalPerDayPerWatt])])

    public static let dietaryEnergy = ReadingKind(
        name: "dietaryEnergy", field: Field.calories, label: "Eaten", unit: "kcal",
        manifestDescription: "energy consumed", quantity: .energy, range: nil,
        day: .sum, insight: .energy, writtenByExist: true, deviceTypes: [.calorieTracker],
        imported: ImportedKind(one: "energy consumed", unit: "kcal", range: 0...50_000),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierDietaryEnergyConsumed", units: SourceUnits.kilocalories),
                  .healthAutoExport: SourceName("dietary_energy", units: SourceUnits.kilocalories),
                  .healthConnect: SourceName("nutrition", units: ["calories": 1])])

    /// A watch's SDNN, Apple Health's only HRV figure: the insights' HRV when the window has no RMSSD.
    public static let heartRateVariability = ReadingKind(
        name: "heartRateVariability", field: Field.heartRateVariabilitySDNN, label: "HRV (SDNN)", unit: "ms",
        manifestDescription: "heart rate variability (SDNN)", quantity: .milliseconds, range: HRVFields.intervalMsRange,
        day: .mean, insight: .heartRateVariability, deviceTypes: [.activityTracker],
        imported: ImportedKind(one: "HRV", unit: "ms", range: 0.1...1_000),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", units: SourceUnits.milliseconds),
                  .healthAutoExport: SourceName("heart_rate_variability", units: SourceUnits.milliseconds)])

    public static let steps = ReadingKind(
        name: "steps", field: Field.steps, label: "Steps", fieldType: .integer, unit: nil, quantity: .steps,
        range: 0...500_000, day: .sum, insight: .steps, writtenByExist: true, deviceTypes: [.activityTracker],
        imported: ImportedKind(one: "step count", many: "step counts", unit: "steps", range: 0...200_000),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierStepCount", units: ["count": 1]),
                  .healthAutoExport: SourceName("step_count", units: ["count": 1]),
                  .healthConnect: SourceName("steps", units: ["count": 1])])

    /// A watch's daily estimate; a watch's other heart rates stay `heartRate`.
    public static let restingHeartRate = ReadingKind(
        name: "restingHeartRate", field: Field.restingHeartRate, label: "Resting heart rate", fieldType: .integer,
        unit: "b/min", manifestDescription: "resting heart rate", quantity: .heartRate, range: 1...300,
        day: .mean, insight: .restingHeartRate, writtenByExist: true, deviceTypes: [.activityTracker], addedInSchema: 8,
        imported: ImportedKind(one: "resting heart rate", many: "resting heart rates", unit: "b/min", range: 20...250),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierRestingHeartRate", units: ["count/min": 1]),
                  .healthAutoExport: SourceName("resting_heart_rate", units: ["count/min": 1, "bpm": 1]),
                  .healthConnect: SourceName("resting_heart_rate", units: ["bpm": 1])])

    /// Apple Health writes body fat as a fraction with the unit "%" (0.235 for 23.5 %); Health Auto Export
    /// and Health Connect as a percentage (23.5).
    public static let bodyFat = ReadingKind(
        name: "bodyFat", field: Field.fatRatio, label: "Body fat", unit: "%", quantity: .percent, range: 0...100,
        day: .mean, insight: .bodyFat, writtenByExist: true, deviceTypes: [.withings, .scale],
        imported: ImportedKind(one: "body fat", unit: "%", range: 1...75),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierBodyFatPercentage", units: ["%": 100]),
                  .healthAutoExport: SourceName("body_fat_percentage", units: ["%": 1]),
                  .samsungHealth: SourceName("body_fat", units: ["%": 1]),
                  .healthConnect: SourceName("body_fat", units: ["percentage": 1])],
        withings: WithingsMeasureType(meastype: 6))

    public static let leanMass = ReadingKind(
        name: "leanMass", field: Field.fatFreeMass, label: "Lean mass", unit: "kg", quantity: .mass, range: 0...650,
        day: .mean, insight: .leanMass, writtenByExist: true, deviceTypes: [.withings, .scale],
        imported: ImportedKind(one: "lean mass", unit: "kg", range: 1...650),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierLeanBodyMass", units: SourceUnits.kilograms),
                  .healthAutoExport: SourceName("lean_body_mass", units: SourceUnits.kilograms),
                  .healthConnect: SourceName("lean_body_mass", units: ["kilograms": 1])],
        withings: WithingsMeasureType(meastype: 5))

    /// RMSSD: an HRV meter's measurement (Welltory's, or computed from an Apple Health record's beat list,
    /// which imports count under this kind). The insights' HRV when the window has any.
    public static let heartRateVariabilityFromBeats = ReadingKind(
        name: "heartRateVariabilityFromBeats", field: Field.rmssd, label: "RMSSD", unit: "ms", manifestDescription: "RMSSD",
        quantity: .milliseconds, range: nil, day: .mean, insight: .heartRateVariability, writtenByExist: true,
        deviceTypes: [.hrvMeter],
        // Computed from beats or the watch's own figure (`Field.source`): the summary says what both are.
        imported: ImportedKind(one: "HRV reading (RMSSD)", many: "HRV readings (RMSSD)", unit: "ms", range: HRVFields.intervalMsRange),
        // Health Connect's HRV record is an RMSSD (Life Dashboard Companion's and HC Webhook's field names).
        sources: [.healthConnect: SourceName("heart_rate_variability", units: ["heart_rate_variability_millis": 1, "rmssd_millis": 1])])

    /// Apple's own SDNN of an HRV record whose beat list hmon refused.
    public static let heartRateVariabilityBeatsRefused = ReadingKind(
        name: "heartRateVariabilityBeatsRefused", field: Field.appleSDNN, label: "Apple SDNN", unit: "ms",
        manifestDescription: "SDNN as Apple Health recorded it", quantity: nil, range: nil, deviceTypes: [.hrvMeter],
        imported: ImportedKind(one: "HRV with beats refused", unit: "ms", range: 0.1...1_000))

    public static let fatMass = ReadingKind(
        name: "fatMass", field: Field.fatMassWeight, label: "Fat mass", unit: "kg", quantity: .mass, range: 0...650,
        deviceTypes: [.withings, .scale], withings: WithingsMeasureType(meastype: 8))

    public static let muscleMass = ReadingKind(
        name: "muscleMass", field: Field.muscleMass, label: "Muscle", unit: "kg", quantity: .mass, range: 0...650,
        deviceTypes: [.withings, .scale])

    public static let boneMass = ReadingKind(
        name: "boneMass", field: Field.boneMass, label: "Bone", unit: "kg", quantity: .mass, range: 0...650,
        deviceTypes: [.withings, .scale])

    /// The body's water as a mass.
    public static let hydration = ReadingKind(
        name: "hydration", field: Field.hydration, label: "Water", unit: "kg", quantity: .mass, range: 0...650,
        deviceTypes: [.withings, .scale])

    public static let heartRate = ReadingKind(
        name: "heartRate", field: Field.heartRate, label: "Heart rate", fieldType: .integer, unit: "b/min",
        quantity: .heartRate, range: 1...300, deviceTypes: [.withings, .scale, .activityTracker, .hrvMeter])

    public static let distance = ReadingKind(
        name: "distance", field: Field.distance, label: "Distance", unit: "m", quantity: nil, range: 0...1_000_000,
        deviceTypes: [.activityTracker])

    /// An HRV meter's SDNN (Welltory's, or computed from beats); ranges in `HRVFields`.
    public static let sdnn = ReadingKind(
        name: "sdnn", field: Field.sdnn, label: "SDNN", unit: "ms", manifestDescription: "SDNN", quantity: .milliseconds,
        range: nil, deviceTypes: [.hrvMeter])

    /// Welltory's measured stress, a fraction 0–1 (not Exist's self-rated scale); ranges in `HRVFields`.
    public static let stress = ReadingKind(
        name: "stress", field: Field.stress, label: "Stress", unit: nil, manifestDescription: "stress, 0–1 (Welltory)",
        quantity: nil, range: nil, day: .mean, insight: .stress, deviceTypes: [.hrvMeter])

    /// The body's water as a share of its weight. openScale writes it in per cent; Withings sends a mass
    /// (meastype 77, "hydration", kg), kept as a share of the weight measured in the same group. Health
    /// Connect's body water is a mass too, and Apple Health has no such type.
    public static let bodyWaterPercentage = ReadingKind(
        name: "bodyWaterPercentage", field: "bodyWaterPercentage", label: "Body water", unit: "%", quantity: .percent,
        range: 0...100, day: .mean, deviceTypes: [.withings, .scale], addedInSchema: 21,
        sources: [.openScale: SourceName("water", units: ["%": 1])],
        withings: WithingsMeasureType(meastype: 77, percentOfWeight: true))

    // A night's sleep, in minutes, one reading a night on the day it ends (`SleepNights`: the night rule and
    // how two devices' overlapping samples count once). Imports make one reading of each night, under time
    // asleep (or time in bed for a night only a phone's schedule saw) with the other figures beside it. A
    // day takes the mean: a night imported again from an export that saw more of it stands beside the first.

    /// Time asleep: the union of every asleep stage (core, deep, REM, unspecified) over every device.
    /// Apple Health's sleep records are category samples (`value` names the stage, no number): the
    /// importers read them apart and make nights; the units here are those of Health Auto Export's totals.
    public static let sleep = ReadingKind(
        name: "sleep", field: Field.sleepMinutes, label: "Asleep", unit: "min", manifestDescription: "time asleep in a night",
        quantity: .minutes, range: 0...1_440, day: .mean, insight: .sleep, deviceTypes: [.activityTracker], addedInSchema: 22,
        imported: ImportedKind(one: "night asleep", many: "nights asleep", unit: "min", range: 0...1_440),
        sources: [.appleHealth: SourceName("HKCategoryTypeIdentifierSleepAnalysis", units: SourceUnits.minutes),
                  .healthAutoExport: SourceName("sleep_analysis", units: SourceUnits.minutes)],
        alsoChanges: [.hrv])

    public static let timeInBed = ReadingKind(
        name: "timeInBed", field: Field.inBedMinutes, label: "In bed", unit: "min", manifestDescription: "time in bed in a night",
        quantity: .minutes, range: 0...1_440, day: .mean, deviceTypes: [.activityTracker], addedInSchema: 22,
        imported: ImportedKind(one: "night in bed", many: "nights in bed", unit: "min", range: 0...1_440), alsoChanges: [.hrv])

    public static let deepSleep = ReadingKind(
        name: "deepSleep", field: Field.deepSleepMinutes, label: "Deep", unit: "min", manifestDescription: "deep sleep in a night",
        quantity: .minutes, range: 0...1_440, day: .mean, deviceTypes: [.activityTracker], addedInSchema: 22)

    public static let remSleep = ReadingKind(
        name: "remSleep", field: Field.remSleepMinutes, label: "REM", unit: "min", manifestDescription: "REM sleep in a night",
        quantity: .minutes, range: 0...1_440, day: .mean, deviceTypes: [.activityTracker], addedInSchema: 22)

    /// Apple's "core" is light sleep (N1 and N2) by other devices' names.
    public static let coreSleep = ReadingKind(
        name: "coreSleep", field: Field.coreSleepMinutes, label: "Core", unit: "min",
        manifestDescription: "core (light) sleep in a night",
        quantity: .minutes, range: 0...1_440, day: .mean, deviceTypes: [.activityTracker], addedInSchema: 22)

    /// Awake after falling asleep, as the watch saw it.
    public static let sleepAwake = ReadingKind(
        name: "sleepAwake", field: Field.awakeMinutes, label: "Awake", unit: "min", manifestDescription: "time awake in a night",
        quantity: .minutes, range: 0...1_440, day: .mean, deviceTypes: [.activityTracker], addedInSchema: 22)

    /// A ring's readiness for the day (Oura's daily readiness score), kept as the ring computes it: hmon
    /// has no way to work it out from the readings it holds, so it neither computes nor adjusts it.
    public static let readiness = ReadingKind(
        name: "readiness", field: Field.readinessScore, label: "Readiness", fieldType: .integer, unit: nil,
        manifestDescription: "readiness score for the day, 0–100 (Oura)",
        quantity: .score, range: 0...100, day: .mean, deviceTypes: [.activityTracker], addedInSchema: 23)

    // Vital signs. A blood pressure is one measurement: its systolic reading carries the diastolic beside
    // it (and the pulse, as heart rate, when the cuff gives one) wherever the source sends them together.

    /// The upper figure of a blood pressure, the reading a measurement is stored under.
    public static let bloodPressureSystolic = ReadingKind(
        name: "bloodPressureSystolic", field: Field.systolic, label: "Blood pressure", fieldType: .integer, unit: "mmHg",
        manifestDescription: "systolic blood pressure", quantity: .pressure, range: 40...300, day: .mean, insight: .bloodPressure,
        deviceTypes: [.activityTracker, .withings], addedInSchema: 32,
        imported: ImportedKind(one: "systolic blood pressure", many: "systolic blood pressures", unit: "mmHg", range: 40...300),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierBloodPressureSystolic", units: SourceUnits.millimetresOfMercury),
                  .healthAutoExport: SourceName("blood_pressure", units: SourceUnits.millimetresOfMercury, valueKey: "systolic",
                                                alongside: ["diastolic": Field.diastolic]),
                  .healthConnect: SourceName("blood_pressure", units: ["systolic": 1], alongside: ["diastolic": Field.diastolic])],
        withings: WithingsMeasureType(meastype: 10))

    /// The lower figure, kept in the systolic reading's message where the source sends both at once.
    public static let bloodPressureDiastolic = ReadingKind(
        name: "bloodPressureDiastolic", field: Field.diastolic, label: "Diastolic", fieldType: .integer, unit: "mmHg",
        manifestDescription: "diastolic blood pressure", quantity: .pressure, range: 20...200, day: .mean,
        deviceTypes: [.activityTracker, .withings], addedInSchema: 32,
        imported: ImportedKind(one: "diastolic blood pressure", many: "diastolic blood pressures", unit: "mmHg", range: 20...200),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierBloodPressureDiastolic", units: SourceUnits.millimetresOfMercury)],
        withings: WithingsMeasureType(meastype: 9))

    /// SpO2. Apple Health writes it as a fraction with the unit "%" (0.97), the others as a percentage.
    public static let oxygenSaturation = ReadingKind(
        name: "oxygenSaturation", field: Field.oxygenSaturation, label: "SpO2", unit: "%", manifestDescription: "blood oxygen saturation (SpO2)",
        quantity: .percent, range: 50...100, day: .mean, insight: .oxygenSaturation, deviceTypes: [.activityTracker, .withings], addedInSchema: 32,
        imported: ImportedKind(one: "SpO2 reading", many: "SpO2 readings", unit: "%", range: 50...100),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierOxygenSaturation", units: ["%": 100]),
                  .healthAutoExport: SourceName("blood_oxygen_saturation", units: ["%": 1]),
                  .healthConnect: SourceName("oxygen_saturation", units: ["percentage": 1])],
        withings: WithingsMeasureType(meastype: 54))

    public static let respiratoryRate = ReadingKind(
        name: "respiratoryRate", field: Field.respiratoryRate, label: "Breathing rate", unit: "breaths/min",
        manifestDescription: "respiratory rate", quantity: .breathingRate, range: 1...80, day: .mean, insight: .respiratoryRate,
        deviceTypes: [.activityTracker], addedInSchema: 32,
        imported: ImportedKind(one: "breathing rate", many: "breathing rates", unit: "breaths/min", range: 1...80),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierRespiratoryRate", units: ["count/min": 1]),
                  .healthAutoExport: SourceName("respiratory_rate", units: ["count/min": 1]),
                  .healthConnect: SourceName("respiratory_rate", units: ["rate": 1])])

    /// A thermometer's (or a scale's) body temperature, kept in °C.
    public static let bodyTemperature = ReadingKind(
        name: "bodyTemperature", field: Field.bodyTemperature, label: "Temperature", unit: "°C", manifestDescription: "body temperature",
        quantity: .temperature, range: 30...45, day: .mean, deviceTypes: [.activityTracker, .withings], addedInSchema: 32,
        imported: ImportedKind(one: "body temperature", many: "body temperatures", unit: "°C", range: 30...45),
        sources: [.appleHealth: SourceName("HKQuantityTypeIdentifierBodyTemperature", units: SourceUnits.celsius),
                  .healthAutoExport: SourceName("body_temperature", units: SourceUnits.celsius),
                  .healthConnect: SourceName("body_temperature", units: ["celsius": 1])],
        withings: WithingsMeasureType(meastype: 71))

    /// A wearable's skin temperature as a change from the person's baseline (Health Connect's skin
    /// temperature record: its deltas, or a bucket's mean of them). An absolute wrist or skin temperature
    /// (Apple's sleeping wrist temperature, Withings' type 73) is another figure and is not kept as this.
    public static let skinTemperatureChange = ReadingKind(
        name: "skinTemperatureChange", field: Field.skinTemperatureChange, label: "Skin temp. change", unit: "°C",
        manifestDescription: "skin temperature change from baseline", quantity: .temperatureChange, range: -10...10, day: .mean, insight: .skinTemperatureChange,
        deviceTypes: [.activityTracker], addedInSchema: 32,
        sources: [.healthConnect: SourceName("skin_temperature", units: ["delta_celsius": 1, "avg_delta_celsius": 1])])
}
