import HealthModel
/// The beat list inside an Apple Health HRV record, read as the scanner passes through it:
///
/// ```xml
/// <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" … startDate="…" endDate="…" value="48.2">
///  <HeartRateVariabilityMetadataList>
///   <InstantaneousBeatsPerMinute bpm="72" time="6:14:48.94 PM"/>
///   …
///  </HeartRateVariabilityMetadataList>
/// </Record>
/// ```
///
/// The handler opens it at such a record's start tag, passes it the record's children, and closes it at
/// the record's end tag, when it becomes a measurement of its own: the RR intervals are the differences
/// between successive beats' times, anchored by `BeatListAnchor` (the times carry 10 ms; the `bpm` is a
/// whole number, 16 ms apart at 60 b/min, and hides a missed beat), checked by `BeatListQuality`, and the
/// figures are `HRVAnalysis`'s. A list that is refused still gives the measurement, with Apple's SDNN, no
/// beat figures, and the reason, so the HRV screen shows the record and says why its beats were not used.
/// Kept apart from `AppleHealthTagHandler` so that the records of every other type pay for none of it:
/// the handler only asks `isOpen`.
struct AppleHealthBeatList {
    /// Between an HRV record's start tag and its end tag.
    private(set) var isOpen = false
    private var depth = 0
    private var source = ""
    private var startMs: Int64 = 0
    private var endMs: Int64 = 0
    /// The record's own value: Apple's SDNN in ms.
    private var appleSDNN = 0.0
    private var utcOffsetSeconds = 0
    /// Seconds since midnight of each beat, in list order; reused from record to record.
    private var times: [Double] = []
    private var problem: Problem?

    /// More beats than this (over half an hour at 200 b/min) is not a watch's measurement; refusing it
    /// keeps memory bounded whatever the file holds.
    static let maximumBeats = 6_000

    /// Why a beat list gives no figures: the import report's skip reasons (the record, with Apple's SDNN, is
    /// kept, and the HRV meter's measurement says `reason`).
    enum Problem: String, Error {
        case unreadableTime = "HRV beat lists with a beat time hmon cannot read (expected like 6:14:48.94 PM or 18:14:48,94)"
        case goesBackwards = "HRV beat lists whose times go backwards"
        case outsideRecord = "HRV beat lists that lie outside their record's start and end"
        case tooLong = "HRV beat lists of more than 6,000 beats"
        case tooShort = "HRV beat lists under 31 beats, too short to compute HRV from"
        case artefacts = "HRV beat lists with too many artefacts to compute HRV from"
        case noVariability = "HRV beat lists with no variability (every interval the same: a sensor artefact, not a heart)"

        /// A few words for the measurement's row: why its beats gave no figures.
        var reason: String {
            switch self {
            case .unreadableTime: "unreadable beat time"
            case .goesBackwards: "beat times go backwards"
            case .outsideRecord: "beats outside the record"
            case .tooLong: "over 6,000 beats"
            case .tooShort: BeatListQuality.Refusal.tooFewBeats(intervals: 0).reason
            case .artefacts: BeatListQuality.Refusal.tooManyArtefacts(replaced: 0, of: 0).reason
            case .noVariability: BeatListQuality.Refusal.noVariability(rmssdMs: 0).reason
            }
        }

        init(_ refusal: BeatListQuality.Refusal) {
            switch refusal {
            case .tooFewBeats: self = .tooShort
            case .tooManyArtefacts: self = .artefacts
            case .noVariability: self = .noVariability
            }
        }
    }

    init() {
        times.reserveCapacity(256)
    }

    /// At the start tag of an HRV record that has children: the record whose beats may follow.
    /// `startDate` is the record's own attribute text (`2016-04-18 08:25:32 -0700`, already parsed to `startMs`).
    mutating func open(_ tag: XMLStartTag, source: String, startMs: Int64, startDate: XMLAttribute, appleSDNN: Double) {
        isOpen = true
        self.appleSDNN = appleSDNN
        depth = tag.depth
        self.source = source
        self.startMs = startMs
        endMs = tag.attribute(Names.endDate).flatMap { tag.withValue($0, ByteParsing.appleDate) } ?? startMs
        utcOffsetSeconds = tag.withValue(startDate, Self.utcOffset) ?? 0
        times.removeAll(keepingCapacity: true)
        problem = nil
    }

    /// A start tag inside the open record.
    mutating func child(_ tag: XMLStartTag) {
        guard problem == nil, tag.depth == depth + 2, tag.nameIs(Names.beat) else { return }
        guard times.count < Self.maximumBeats else {
            problem = .tooLong
            return
        }
        guard let attribute = tag.attribute(Names.time), let seconds = tag.withValue(attribute, BeatTimeOfDay.seconds) else {
            problem = .unreadableTime
            return
        }
        times.append(seconds)
    }

    /// At an end tag; when it ends the open record, the measurement its beats make: with hmon's figures, or,
    /// when the list is refused, with Apple's SDNN alone and the problem.
    mutating func close(depth closed: Int) -> (measurement: ImportedReading, refused: Problem?)? {
        guard isOpen, closed == depth else { return nil }
        isOpen = false
        guard problem != nil || !times.isEmpty else { return nil }
        switch figures() {
        case .success(let measurement): return (measurement, nil)
        case .failure(let problem): return (refused(problem), problem)
        }
    }

    /// hmon's figures from the beats, with Apple's SDNN beside them.
    private func figures() -> Result<ImportedReading, Problem> {
        if let problem { return .failure(problem) }
        let instants: [Double]
        do {
            instants = try BeatListAnchor.instants(timesOfDay: times, startMs: startMs, endMs: endMs,
                                                   utcOffsetSeconds: utcOffsetSeconds)
        } catch .goesBackwards {
            return .failure(.goesBackwards)
        } catch {
            return .failure(.outsideRecord)
        }
        // To the µs: the times carry at most ms, and the rest is the noise of subtracting instants.
        let intervals = zip(instants.dropFirst(), instants).map { (($0 - $1) * 1000).rounded() / 1000 }
        let analysis: HRVAnalysis
        switch BeatListQuality.check(rrMs: intervals) {
        case .success(let checked): analysis = HRVAnalysis(checked: checked)
        case .failure(let refusal): return .failure(Problem(refusal))
        }
        var figures: [String: Double] = [Field.appleSDNN: appleSDNN]
        for (field, value) in analysis.readingData where field != Field.rmssd {
            if let number = value.number { figures[field] = number }
        }
        return .success(ImportedReading(kind: .heartRateVariabilityFromBeats, source: source, timestamp: startMs,
                                        value: analysis.readingData[Field.rmssd]?.number ?? analysis.timeDomain.rmssdMs,
                                        extras: figures))
    }

    /// The measurement of a refused list: the record's SDNN and why its beats gave no figures.
    private func refused(_ problem: Problem) -> ImportedReading {
        ImportedReading(kind: .heartRateVariabilityBeatsRefused, source: source, timestamp: startMs, value: appleSDNN,
                        texts: [Field.beatsRefused: problem.reason])
    }

    /// The offset at the end of an Apple date (`-0700` → −25,200 s).
    private static func utcOffset(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count == 25, b[20] == UInt8(ascii: "+") || b[20] == UInt8(ascii: "-"),
              let hours = ByteParsing.digits(b, 21, 2), let minutes = ByteParsing.digits(b, 23, 2) else { return nil }
        return (hours * 3600 + minutes * 60) * (b[20] == UInt8(ascii: "-") ? -1 : 1)
    }

    private enum Names {
        static let endDate = Array("endDate".utf8)
        static let beat = Array("InstantaneousBeatsPerMinute".utf8)
        static let time = Array("time".utf8)
    }
}
