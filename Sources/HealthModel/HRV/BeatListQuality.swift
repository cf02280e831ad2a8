import Foundation

/// Whether a list of beat-to-beat intervals may be turned into HRV figures: the one check every way a beat
/// list enters hmon goes through (`hmon add hrv --rr`, an Apple Health record's beats), so a list refused
/// by one is refused by all, with the same reason.
///
/// A list is refused when it has
/// - **too few beats**: under `minimumIntervals` intervals (31 beats, about 30 s). The Task Force of the ESC
///   and NASPE (1996) standardises short-term HRV on 5 minutes; Munoz et al. (2015, PLoS ONE 10(9): e0138921)
///   found RMSSD from 30 s recordings to agree closely with 5 minutes, and a watch's reading lasts about a
///   minute, so 30 s is the shortest list whose RMSSD hmon stands behind.
/// - **too many artefacts**: more than one interval in five (`artefactsAllowedOneIn`) outside the plausible
///   300–2000 ms (200 to 30 b/min) or more than 20 % from the last accepted interval (Malik et al., 1989), so
///   replaced by interpolation. Kubios (Lipponen & Tarvainen, 2019) corrects artefacts the same way and warns
///   that figures from heavily corrected data describe the correction; the one-in-five limit is hmon's own.
/// - **no variability**: an RMSSD of the normal intervals under `minimumRMSSDMs`, which includes every list
///   whose successive intervals are all equal. A heart's beat-to-beat intervals always vary: resting RMSSD in
///   healthy adults is tens of ms (Nunan et al., 2010, a review of short-term norms: 19–75 ms). A list
///   that does not vary is a sensor or software artefact (a watch writing one interval again and again);
///   kept, its RMSSD of 0 ms would drag the baseline and the insights down ("HRV 0.0 ms"). The 1 ms floor is
///   hmon's choice, not a published threshold: far below a resting heart, and below what an Apple Watch's
///   10 ms beat times show for a list with any real variation (a single 10 ms step in 30 intervals gives
///   RMSSD 1.9 ms).
public enum BeatListQuality {
    /// 30 intervals: 31 beats.
    public static let minimumIntervals = 30
    /// At most one interval in this many replaced.
    public static let artefactsAllowedOneIn = 5
    public static let minimumRMSSDMs = 1.0

    /// Why a beat list gives no HRV figures.
    public enum Refusal: Error, Equatable, Sendable {
        case tooFewBeats(intervals: Int)
        case tooManyArtefacts(replaced: Int, of: Int)
        case noVariability(rmssdMs: Double)

        /// A few words for a table row: "too few beats", "too many artefacts", "no variability".
        public var reason: String {
            switch self {
            case .tooFewBeats: "too few beats"
            case .tooManyArtefacts: "too many artefacts"
            case .noVariability: "no variability"
            }
        }

        /// The whole story, for a person at the command line: what is wrong and what to do.
        public var message: String {
            switch self {
            case .tooFewBeats(let intervals):
                "\(intervals) intervals are too few for HRV: record at least \(minimumIntervals) beats (about 30 s)"
            case .tooManyArtefacts(let replaced, let total):
                "\(replaced) of \(total) intervals are artefacts or ectopic beats: record again at rest"
            case .noVariability(let rmssd):
                "the intervals do not vary (RMSSD \(HRVAnalysis.rounded(rmssd, 2)) ms, under \(formatted(minimumRMSSDMs)) ms): "
                    + "no heart beats that evenly, so the list is a sensor artefact; record again"
            }
        }
    }

    /// The normal intervals of `rrMs` (ms) and their time-domain figures, or why there are none.
    public static func check(rrMs: [Double]) -> Result<(intervals: NormalIntervals, timeDomain: HRVTimeDomain), Refusal> {
        guard rrMs.count >= minimumIntervals else { return .failure(.tooFewBeats(intervals: rrMs.count)) }
        let cleaned = NormalIntervals.malik(rrMs)
        guard cleaned.removed * artefactsAllowedOneIn <= rrMs.count,
              let time = HRVTimeDomain(nn: cleaned.milliseconds) else {
            return .failure(.tooManyArtefacts(replaced: cleaned.removed, of: rrMs.count))
        }
        guard time.rmssdMs >= minimumRMSSDMs else { return .failure(.noVariability(rmssdMs: time.rmssdMs)) }
        return .success((cleaned, time))
    }
}
