import Foundation
import HealthModel

/// The kinds of reading hmon takes from other tools' exports, each with the manifest field it lands in
/// and the built-in device type whose devices carry it.
public enum ReadingKind: String, Sendable, CaseIterable, Codable, Comparable {
    case weight, height, activeEnergy, basalEnergy, dietaryEnergy, heartRateVariability
    // What the insights need besides (issue 14).
    case steps, restingHeartRate, bodyFat, leanMass
    /// An HRV meter's measurement computed from an Apple Health record's beat list: RMSSD, with SDNN,
    /// pNN50, heart rate and the rest of `HRVAnalysis` as extras.
    case heartRateVariabilityFromBeats
    /// An HRV meter's measurement whose Apple Health record carried a beat list hmon refused: Apple's SDNN
    /// alone, with the reason as text (`Field.beatsRefused`); no RMSSD, so never in the baseline or insights.
    case heartRateVariabilityBeatsRefused

    /// The message field the value is stored under.
    public var field: String {
        switch self {
        case .weight: Field.weight
        case .height: Field.height
        case .activeEnergy: Field.activeEnergy
        case .basalEnergy: Field.basalEnergy
        case .dietaryEnergy: Field.calories
        case .heartRateVariability: Field.heartRateVariabilitySDNN
        case .steps: Field.steps
        case .restingHeartRate: Field.restingHeartRate
        case .bodyFat: Field.fatRatio
        case .leanMass: Field.fatFreeMass
        case .heartRateVariabilityFromBeats: Field.rmssd
        case .heartRateVariabilityBeatsRefused: Field.appleSDNN
        }
    }

    /// How the end-of-import summary names `count` readings of this kind ("1 weight", "2 weights").
    public func label(count: Int) -> String {
        count == 1 && [.weight, .height, .steps, .restingHeartRate].contains(self) ? String(label.dropLast()) : label
    }

    /// How the end-of-import summary names readings of this kind.
    public var label: String {
        switch self {
        case .weight: "weights"
        case .height: "heights"
        case .activeEnergy: "active energy"
        case .basalEnergy: "resting energy"
        case .dietaryEnergy: "energy consumed"
        case .heartRateVariability: "HRV"
        case .steps: "step counts"
        case .restingHeartRate: "resting heart rates"
        case .bodyFat: "body fat"
        case .leanMass: "lean mass"
        case .heartRateVariabilityFromBeats: "HRV from beats"
        case .heartRateVariabilityBeatsRefused: "HRV with beats refused"
        }
    }

    /// The plausible range of one reading in hmon's unit; values outside are skipped, not fatal.
    /// Weight and energy are `ReadingRules`' ranges, so an export keeps what any face may post.
    public var saneRange: ClosedRange<Double> {
        switch self {
        case .weight: ReadingRules.weightKg       // kg
        case .height: 30...300                    // cm
        // kcal; 50,000 itself is refused by the rules when the reading is stored.
        case .activeEnergy, .basalEnergy, .dietaryEnergy: ReadingRules.energyKcal.lowerBound...ReadingRules.energyKcal.upperBound
        case .heartRateVariability, .heartRateVariabilityBeatsRefused: 0.1...1_000   // ms
        case .steps: 0...200_000                  // one sample's count
        case .restingHeartRate: 20...250          // b/min
        case .bodyFat: 1...75                     // %
        case .leanMass: 1...650                   // kg
        case .heartRateVariabilityFromBeats: HRVFields.intervalMsRange
        }
    }

    public var unit: String {
        switch self {
        case .weight: "kg"
        case .height: "cm"
        case .activeEnergy, .basalEnergy, .dietaryEnergy: "kcal"
        case .heartRateVariability, .heartRateVariabilityFromBeats, .heartRateVariabilityBeatsRefused: "ms"
        case .steps: "steps"
        case .restingHeartRate: "b/min"
        case .bodyFat: "%"
        case .leanMass: "kg"
        }
    }

    public static func < (a: ReadingKind, b: ReadingKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One reading found in an export, already in hmon's units (kg, cm, kcal, ms).
public struct ImportedReading: Sendable, Equatable {
    public var kind: ReadingKind
    /// Where it came from, as the export names it ("Apple Watch", "Withings", "Jörg's iPhone");
    /// readings land on a device of this name.
    public var source: String
    /// When it was taken (the sample's start), ms since the epoch.
    public var timestamp: Int64
    /// The value of `kind.field`.
    public var value: Double
    /// Further fields of the same message (a scale's `fatRatio`, `muscleMass`); usually empty.
    public var extras: [String: Double]
    /// Further text fields of the same message (why hmon refused an HRV record's beats); usually empty.
    public var texts: [String: String]

    public init(kind: ReadingKind, source: String, timestamp: Int64, value: Double, extras: [String: Double] = [:],
                texts: [String: String] = [:]) {
        self.kind = kind
        self.source = source
        self.timestamp = timestamp
        self.value = value
        self.extras = extras
        self.texts = texts
    }
}

/// What an export says about the person (Apple Health's `Me` element and latest height).
public struct ImportedProfile: Sendable, Equatable {
    public var birthDate: Day?
    public var sex: Sex?
    public var heightCm: Double?
    /// When the height was measured, so the latest one wins.
    public var heightTimestamp: Int64?

    public init(birthDate: Day? = nil, sex: Sex? = nil, heightCm: Double? = nil, heightTimestamp: Int64? = nil) {
        self.birthDate = birthDate
        self.sex = sex
        self.heightCm = heightCm
        self.heightTimestamp = heightTimestamp
    }

    public var isEmpty: Bool { birthDate == nil && sex == nil && heightCm == nil }

    /// Keeps the later of two heights.
    mutating func noteHeight(_ cm: Double, at timestamp: Int64) {
        if heightTimestamp.map({ timestamp >= $0 }) ?? true {
            heightCm = cm
            heightTimestamp = timestamp
        }
    }
}

extension ReadingKind {
    /// A dense index for per-kind counters.
    package var index: Int {
        switch self {
        case .weight: 0
        case .height: 1
        case .activeEnergy: 2
        case .basalEnergy: 3
        case .dietaryEnergy: 4
        case .heartRateVariability: 5
        case .steps: 6
        case .restingHeartRate: 7
        case .bodyFat: 8
        case .leanMass: 9
        case .heartRateVariabilityFromBeats: 10
        case .heartRateVariabilityBeatsRefused: 11
        }
    }
}
