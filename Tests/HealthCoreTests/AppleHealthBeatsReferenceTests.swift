import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// An Apple Health beat list imported end to end gives hrv-analysis 1.0.6's figures for the same intervals
/// (the seeded fixtures of `HRVFixtures.swift`, made by `Tests/ReferenceScripts/make_hrv_fixtures.py`):
/// the times written as beat times, read back, anchored and differenced, lose nothing on the way.
@Suite struct AppleHealthBeatsReferenceTests {
    /// An export holding one HRV record whose beats are `rr` apart, timed to the ms (`18:14:48.945`).
    static func export(rr: [Double], recordMinutes: Int) -> String {
        var at = 18.0 * 3600 + 14 * 60 + 48
        func time(_ seconds: Double) -> String {
            let ms = Int((seconds * 1000).rounded())
            return String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        }
        var beats = ["   <InstantaneousBeatsPerMinute bpm=\"70\" time=\"\(time(at))\"/>"]
        for interval in rr {
            at += interval / 1000
            beats.append("   <InstantaneousBeatsPerMinute bpm=\"\(Int(60_000 / interval))\" time=\"\(time(at))\"/>")
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="de_DE">
         <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" unit="ms" \
        startDate="2024-01-03 18:14:47 +0100" endDate="2024-01-03 18:\(14 + recordMinutes):47 +0100" value="40.1">
          <HeartRateVariabilityMetadataList>
        \(beats.joined(separator: "\n"))
          </HeartRateVariabilityMetadataList>
         </Record>
        </HealthData>
        """
    }

    static func measurement(rr: [Double], recordMinutes: Int) throws -> ImportedReading {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-beats-\(UUID().uuidString).xml")
        try Data(export(rr: rr, recordMinutes: recordMinutes).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var readings: [ImportedReading] = []
        _ = try Importer.read(file) { readings.append($0) }
        return try #require(readings.first { $0.kind == .heartRateVariabilityFromBeats })
    }

    static func within(_ fraction: Double, _ value: Double?, _ reference: Double) -> Bool {
        value.map { abs($0 - reference) <= fraction * abs(reference) } ?? false
    }

    @Test func ninetySecondsOfBeatsGiveHRVAnalysisTimeDomainFigures() throws {
        let r = HRVFixtures.ninetySecondsReference
        let m = try Self.measurement(rr: HRVFixtures.ninetySeconds, recordMinutes: 2)
        #expect(Self.within(0.01, m.value, r.rmssd), "RMSSD \(m.value) vs \(r.rmssd)")
        #expect(Self.within(0.01, m.extras[Field.sdnn], r.sdnn), "SDNN \(String(describing: m.extras[Field.sdnn])) vs \(r.sdnn)")
        #expect(Self.within(0.01, m.extras[Field.pnn50], r.pnn50))
        #expect(Self.within(0.01, m.extras[Field.heartRate], r.meanHR))
        #expect(Self.within(0.01, m.extras[Field.stressIndex], r.si))
        #expect(m.extras[Field.totalPower] == nil, "under two minutes")
    }

    @Test func fiveMinutesOfBeatsGiveHRVAnalysisPower() throws {
        let r = HRVFixtures.fiveMinutesReference
        let m = try Self.measurement(rr: HRVFixtures.fiveMinutes, recordMinutes: 6)
        #expect(Self.within(0.01, m.value, r.rmssd), "RMSSD \(m.value) vs \(r.rmssd)")
        #expect(Self.within(0.05, m.extras[Field.totalPower], r.total), "total \(String(describing: m.extras[Field.totalPower])) vs \(r.total)")
        #expect(Self.within(0.05, m.extras[Field.lfPower], r.lf))
        #expect(Self.within(0.05, m.extras[Field.hfPower], r.hf))
    }
}
