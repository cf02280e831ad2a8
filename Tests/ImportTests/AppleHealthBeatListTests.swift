import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// Apple Health HRV records that carry their beats: the times read in any locale, anchored to the
/// record, and turned into an HRV meter's measurement beside the record's own SDNN.
@Suite struct AppleHealthBeatListTests {
    // MARK: Reading a beat's time

    func seconds(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { BeatTimeOfDay.seconds($0) }
    }

    /// Whether `text` reads as `expected` seconds since midnight, to the µs.
    func reads(_ text: String, as expected: Double) -> Bool {
        seconds(text).map { abs($0 - expected) < 1e-6 } ?? false
    }

    @Test func readsTwelveAndTwentyFourHourTimesWithADotOrACommaBeforeTheFraction() throws {
        let evening: Double = 18 * 3600 + 14 * 60 + 48.94
        #expect(reads("6:14:48.94 PM", as: evening))
        #expect(reads("18:14:48,94", as: evening))
        #expect(reads("18:14:48.94", as: evening))
        #expect(reads("06:14:48.94 p.m.", as: evening))
        #expect(reads("6:14:48.94pm", as: evening))
        #expect(reads("6:14:48.94\u{202F}PM", as: evening), "newer iOS writes a narrow no-break space")
        #expect(reads("6:14:48,94 AM", as: evening - 12 * 3600))
        #expect(seconds("12:00:01.50 AM") == 1.5, "12 AM is midnight")
        #expect(seconds("12:30:00 PM") == 12.5 * 3600, "12 PM is noon")
        #expect(seconds("00:00:00") == 0)
        #expect(seconds("0:10:00 AM") == 600, "a 0–11 clock with AM")
    }

    @Test func refusesWhatIsNotATimeOfDay() {
        for text in ["", "25:00:00", "18:60:00", "13:00:00 PM", "0:10:00 PM", "6:14 PM", "6:14:4.9 PM",
                     "6:14:48. PM", "6:14:48.94 XM", "6:14:48.94 PM later", "2024-01-03 18:14:48", "18h14"] {
            #expect(seconds(text) == nil, "\(text)")
        }
    }

    // MARK: Anchoring

    /// 2024-01-03 18:14:47 +0100 is 17:14:47 UTC.
    let start = ms("2024-01-03T17:14:47Z")

    @Test func anchorsTimesOfDayToTheRecordsStartInItsOwnOffset() throws {
        let sixFourteen: Double = 18 * 3600 + 14 * 60
        let times: [Double] = [sixFourteen + 48, sixFourteen + 48.8, sixFourteen + 49.7]
        let instants = try BeatListAnchor.instants(timesOfDay: times, startMs: start, endMs: start + 60_000, utcOffsetSeconds: 3600)
        let expected = [start + 1000, start + 1800, start + 2700].map(Double.init)
        #expect(zip(instants, expected).allSatisfy { abs($0 - $1) < 1e-3 }, "\(instants)")
    }

    @Test func aListThatCrossesMidnightRunsOnIntoTheNextDay() throws {
        // Record 2024-01-03 23:59:50 +0100 to 2024-01-04 00:00:50 +0100; beats 23:59:59.5, 0:00:00.3, 0:00:01.2.
        let start = ms("2024-01-03T22:59:50Z")
        let times = [86_399.5, 0.3, 1.2]
        let instants = try BeatListAnchor.instants(timesOfDay: times, startMs: start, endMs: start + 60_000, utcOffsetSeconds: 3600)
        let expected = [start + 9_500, start + 10_300, start + 11_200].map(Double.init)
        #expect(zip(instants, expected).allSatisfy { abs($0 - $1) < 1e-3 }, "\(instants)")
    }

    @Test func aRecordJustAfterMidnightTakesBeatsFromJustBefore() throws {
        // Record 2024-01-04 00:00:01 +0000; the watch's first beat is 23:59:59.9 the day before.
        let start = ms("2024-01-04T00:00:01Z")
        let instants = try BeatListAnchor.instants(timesOfDay: [86_399.9, 0.7], startMs: start, endMs: start + 60_000, utcOffsetSeconds: 0)
        #expect(abs(instants[0] - Double(start - 1_100)) < 1e-3)
        #expect(abs(instants[1] - Double(start - 300)) < 1e-3)
    }

    @Test func aListAWholeHourOffItsRecordIsMovedOntoIt() throws {
        // The record says 08:00:00 +0200; the beats were written an hour behind, from 7:00:01.
        let start = ms("2024-03-31T06:00:00Z")
        let cases: [(first: Double, label: String)] = [(7 * 3600 + 1, "an hour behind"), (9 * 3600 + 1, "an hour ahead")]
        for (first, label) in cases {
            let instants = try BeatListAnchor.instants(timesOfDay: [first, first + 0.9], startMs: start, endMs: start + 60_000,
                                                       utcOffsetSeconds: 7200)
            #expect(abs(instants[0] - Double(start + 1000)) < 1e-3, "\(label)")
            #expect(abs(instants[1] - Double(start + 1900)) < 1e-3, "\(label)")
        }
    }

    @Test func aListOffByLessThanAnHourOrGoingBackwardsIsRefused() {
        let start = ms("2024-03-31T06:00:00Z")
        #expect(throws: BeatListAnchor.Problem.outsideRecord) {
            try BeatListAnchor.instants(timesOfDay: [8.5 * 3600, 8.5 * 3600 + 1], startMs: start, endMs: start + 60_000, utcOffsetSeconds: 7200)
        }
        #expect(throws: BeatListAnchor.Problem.goesBackwards) {
            try BeatListAnchor.instants(timesOfDay: [8 * 3600 + 5, 8 * 3600 + 4], startMs: start, endMs: start + 60_000, utcOffsetSeconds: 7200)
        }
    }

    // MARK: Importing

    static func export(_ records: String...) -> String { AppleHealthXML.document(records.joined(separator: "\n")) }

    static let eveningStart = "2024-01-03 18:14:47 +0100"
    static let eveningEnd = "2024-01-03 18:15:47 +0100"
    static let eveningFirstBeat: Double = 18 * 3600 + 14 * 60 + 48

    func importBeats(_ xml: String) throws -> (ImportResult, [ImportedReading]) {
        let folder = try TempFolder()
        return try readAll(try folder.write("export.xml", xml))
    }

    /// The hand-worked figures of `BeatListXML.alternating(40)`.
    func expectHandWorkedFigures(_ reading: ImportedReading?, _ label: Comment) throws {
        let reading = try #require(reading, label)
        #expect(reading.kind == .heartRateVariabilityFromBeats, label)
        #expect(abs(reading.value - 100) < 0.05, label)                                            // RMSSD
        let sdnn: Double = 50 * (40.0 / 39).squareRoot()                                           // 50.637
        #expect(reading.extras[Field.sdnn] == (sdnn * 10).rounded() / 10, label)
        #expect(reading.extras[Field.pnn50] == 100, label)
        #expect(reading.extras[Field.heartRate] == 71, label)                                      // 70.83
        #expect(reading.extras[Field.totalPower] == nil, "34 s is too short for the spectrum")
    }

    @Test func aBeatListBecomesAMeasurementBesideTheRecordsSDNN() throws {
        for clock in [BeatListXML.Clock.twelveHour, .twentyFourHourComma] {
            let xml = Self.export(BeatListXML.record(start: Self.eveningStart, end: Self.eveningEnd,
                                                     children: BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: Self.eveningFirstBeat, clock)))
            let (result, readings) = try importBeats(xml)
            #expect(readings.map(\.kind) == [.heartRateVariability, .heartRateVariabilityFromBeats], "\(clock)")
            #expect(readings.first?.value == 48.2, "Apple's own SDNN is kept as it is")
            let beats = readings.last
            try expectHandWorkedFigures(beats, "\(clock)")
            #expect(beats?.extras[Field.appleSDNN] == 48.2, "Apple's SDNN beside hmon's figures, as a figure of its own")
            #expect(beats?.texts.isEmpty == true)
            #expect(beats?.timestamp == ms("2024-01-03T17:14:47Z"), "at the record's start")
            #expect(beats?.source == "Apple Watch")
            #expect(result.tally.kept[.heartRateVariabilityFromBeats] == 1)
            #expect(result.tally.skippedReasons.isEmpty, "\(result.tally.skippedReasons)")
        }
    }

    @Test func aBeatListAcrossMidnightGivesTheSameFigures() throws {
        // 39 beats before midnight, the rest after: 11:59:34.00 PM … 12:00:08.00 AM.
        let xml = Self.export(BeatListXML.record(start: "2024-01-03 23:59:33 +0100", end: "2024-01-04 00:00:33 +0100",
                                                 children: BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: 86_374, .twelveHour)))
        #expect(xml.contains("11:59:59.50 PM") && xml.contains("12:00:00.30 AM"), "the fixture crosses midnight")
        let (result, readings) = try importBeats(xml)
        try expectHandWorkedFigures(readings.last, "across midnight")
        #expect(result.tally.skippedReasons.isEmpty, "\(result.tally.skippedReasons)")
    }

    @Test func aBeatListAnHourOffItsRecordGivesTheSameFigures() throws {
        let xml = Self.export(BeatListXML.record(start: "2024-03-31 08:00:00 +0200", end: "2024-03-31 08:01:00 +0200",
                                                 children: BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: 7 * 3600 + 1, .twentyFourHourComma)))
        let (result, readings) = try importBeats(xml)
        try expectHandWorkedFigures(readings.last, "an hour off")
        #expect(readings.last?.timestamp == ms("2024-03-31T06:00:00Z"))
        #expect(result.tally.skippedReasons.isEmpty, "\(result.tally.skippedReasons)")
    }

    /// Issue 28, item 2: a refused list keeps the record, and its measurement says why.
    @Test func aMalformedOrFlatBeatListIsRefusedWithItsReasonAndTheRecordIsKept() throws {
        let good = BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: Self.eveningFirstBeat, .twelveHour)
        let cases: [(children: String, reason: AppleHealthBeatList.Problem)] = [
            (good.replacingOccurrences(of: "6:14:50.50 PM", with: "6h14m50"), .unreadableTime),
            (good.replacingOccurrences(of: "time=\"6:14:50.50 PM\"", with: "when=\"6:14:50.50 PM\""), .unreadableTime),
            (good.replacingOccurrences(of: "6:14:50.50 PM", with: "6:14:40.50 PM"), .goesBackwards),
            (BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: Self.eveningFirstBeat + 1800, .twelveHour), .outsideRecord),
            (BeatListXML.list(rr: BeatListXML.alternating(20), firstBeat: Self.eveningFirstBeat, .twelveHour), .tooShort),
            (BeatListXML.list(rr: (0..<40).map { $0.isMultiple(of: 2) ? 600 : 1100 }, firstBeat: Self.eveningFirstBeat, .twelveHour), .artefacts),
            (BeatListXML.list(rr: [Double](repeating: 1000, count: 40), firstBeat: Self.eveningFirstBeat, .twelveHour), .noVariability),
        ]
        #expect(good.contains("6:14:50.50 PM"))
        for (children, reason) in cases {
            let xml = Self.export(BeatListXML.record(start: Self.eveningStart, end: Self.eveningEnd, children: children),
                                  AppleHealthXML.record("BodyMass", "72.4", unit: "kg", at: "2024-01-04 07:15:00 +0100"))
            let (result, readings) = try importBeats(xml)
            #expect(readings.map(\.kind) == [.heartRateVariability, .heartRateVariabilityBeatsRefused, .weight], "\(reason)")
            let refused = readings[1]
            #expect(refused.value == 48.2 && refused.extras.isEmpty, "Apple's SDNN alone, no beat figures: \(reason)")
            #expect(refused.texts == [Field.beatsRefused: reason.reason], "\(reason)")
            #expect(refused.timestamp == ms("2024-01-03T17:14:47Z") && refused.source == "Apple Watch", "\(reason)")
            #expect(result.tally.skippedReasons == [reason.rawValue: 1], "\(reason)")
            #expect(result.tally.kept[.heartRateVariabilityBeatsRefused] == 1, "\(reason)")
        }
    }

    @Test func aBeatListLongerThanAnyMeasurementIsRefusedWithoutHoldingIt() throws {
        let rr = [Double](repeating: 300, count: AppleHealthBeatList.maximumBeats + 10)
        let xml = Self.export(BeatListXML.record(start: "2024-01-03 18:14:47 +0100", end: "2024-01-03 18:46:47 +0100",
                                                 children: BeatListXML.list(rr: rr, firstBeat: Self.eveningFirstBeat, .twentyFourHourComma)))
        let (result, readings) = try importBeats(xml)
        #expect(readings.map(\.kind) == [.heartRateVariability, .heartRateVariabilityBeatsRefused])
        #expect(readings.last?.texts == [Field.beatsRefused: "over 6,000 beats"])
        #expect(result.tally.skippedReasons == [AppleHealthBeatList.Problem.tooLong.rawValue: 1])
    }

    @Test func otherChildrenOfTheRecordAndRecordsWithoutBeatsAreLeftAlone() throws {
        let children = "  <MetadataEntry key=\"HKAlgorithmVersion\" value=\"2\"/>\n"
            + BeatListXML.list(rr: BeatListXML.alternating(40), firstBeat: Self.eveningFirstBeat, .twelveHour)
        let xml = Self.export(BeatListXML.record(start: Self.eveningStart, end: Self.eveningEnd, children: children),
                              BeatListXML.record(sdnn: "51", start: "2024-01-04 08:00:00 +0100", end: "2024-01-04 08:01:00 +0100",
                                                 children: "  <MetadataEntry key=\"HKAlgorithmVersion\" value=\"2\"/>"),
                              AppleHealthXML.record("HeartRateVariabilitySDNN", "39", unit: "ms", at: "2024-01-05 08:00:00 +0100"))
        let (result, readings) = try importBeats(xml)
        #expect(readings.map(\.kind) == [.heartRateVariability, .heartRateVariabilityFromBeats, .heartRateVariability, .heartRateVariability])
        #expect(readings.filter { $0.kind == .heartRateVariability }.map(\.value) == [48.2, 51, 39])
        #expect(result.tally.skippedReasons.isEmpty)
        #expect(result.tally.skippedKinds["MetadataEntry"] == nil)
    }

    /// A watch's own nightly RMSSD (Fitbit, Garmin, Gadgetbridge) is stored as the watch's, not as computed from
    /// beats, yet keeps the id it had when hmon stamped every imported RMSSD "beats": an export imported before
    /// is not added again.
    @Test func aWatchsOwnRMSSDSaysSoAndKeepsItsEarlierId() throws {
        let watch = ImportedReading(kind: .heartRateVariabilityFromBeats, source: "Fitbit", timestamp: 1_773_442_800_000, value: 41.2,
                                    texts: [Field.source: HRVSource.watch.rawValue])
        let before = ImportedReading(kind: .heartRateVariabilityFromBeats, source: "Fitbit", timestamp: 1_773_442_800_000, value: 41.2)
        let watchJSON = try StoredReading.json(watch), beforeJSON = try StoredReading.json(before)
        #expect(watchJSON.contains("\"source\":\"watch\"") && !watchJSON.contains("beats"), "\(watchJSON)")
        #expect(beforeJSON.contains("\"source\":\"beats\""), "\(beforeJSON)")
        #expect(StoredReading.identity(watch, json: watchJSON) == StoredReading.identity(before, json: beforeJSON))
    }
}
