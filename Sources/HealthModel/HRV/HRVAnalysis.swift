import Foundation

/// Everything hmon computes from one recording of beat-to-beat intervals: Malik's cleaning, the time
/// domain, the frequency domain when the recording lasts two minutes, and Baevsky's stress index.
public struct HRVAnalysis: Sendable, Equatable {
    public let intervals: NormalIntervals
    public let timeDomain: HRVTimeDomain
    /// Nil under two minutes.
    public let spectrum: HRVSpectrum?
    public let stressIndex: Double?

    /// Fewer than this many intervals is not a measurement.
    public static let minimumBeats = BeatListQuality.minimumIntervals

    /// Throws `.invalidValue` with `BeatListQuality`'s message when the list is refused: too few beats, too
    /// many artefacts, or no variability.
    public init(rrMs: [Double]) throws {
        switch BeatListQuality.check(rrMs: rrMs) {
        case .success(let checked):
            self.init(checked: checked)
        case .failure(let refusal):
            throw HealthError.invalidValue(refusal.message)
        }
    }

    /// The figures of a list `BeatListQuality` accepted.
    public init(checked: (intervals: NormalIntervals, timeDomain: HRVTimeDomain)) {
        let cleaned = checked.intervals
        intervals = cleaned
        timeDomain = checked.timeDomain
        spectrum = HRVSpectrum(nn: cleaned.milliseconds)
        stressIndex = BaevskyStressIndex.of(nn: cleaned.milliseconds)
    }

    /// The measurement as an HRV meter's reading (figures rounded to what is meaningful to store).
    public var readingData: [String: FieldValue] {
        var data: [String: FieldValue] = [
            Field.rmssd: .number(Self.rounded(timeDomain.rmssdMs, 1)),
            Field.sdnn: .number(Self.rounded(timeDomain.sdnnMs, 1)),
            Field.pnn50: .number(Self.rounded(timeDomain.pnn50, 1)),
            Field.heartRate: .number(timeDomain.meanHeartRate.rounded()),
            Field.source: .text(HRVSource.beats.rawValue),
        ]
        if let spectrum {
            data[Field.totalPower] = .number(Self.rounded(spectrum.total, 0))
            data[Field.lfPower] = .number(Self.rounded(spectrum.lf, 0))
            data[Field.hfPower] = .number(Self.rounded(spectrum.hf, 0))
        }
        if let stressIndex { data[Field.stressIndex] = .number(Self.rounded(stressIndex, 1)) }
        return data
    }

    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}

/// Where an HRV measurement came from: it decides whether its colours are Welltory's or the baseline's.
public enum HRVSource: String, Sendable, CaseIterable {
    case welltory, beats, manual
    /// Health Connect's own RMSSD figure (a watch's), pushed by an Android app: kept beside hmon's figures
    /// from beats, never recomputed.
    case healthConnect
    /// An Oura ring's own RMSSD of a night (`average_hrv` of its long sleep), pulled from Oura's API: kept
    /// beside hmon's figures from beats, never recomputed.
    case oura
    /// A watch's own nightly RMSSD read from its files (Fitbit's Takeout, a Garmin watch, Gadgetbridge's
    /// database): kept as the device measured it, beside hmon's figures from beats.
    case watch

    /// How the HRV screen names it.
    public var label: String {
        switch self {
        case .welltory: "Welltory"
        case .beats: "beats"
        case .manual: "by hand"
        case .healthConnect: "Health Connect"
        case .oura: "Oura"
        case .watch: "watch"
        }
    }
}
