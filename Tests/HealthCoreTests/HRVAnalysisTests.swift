import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// HRV from beats, checked against hrv-analysis 1.0.6 on the seeded fixtures in `HRVFixtures.swift`
/// (made by `Tests/ReferenceScripts/make_hrv_fixtures.py`): time domain within 1 %, power within 5 %.
@Suite struct HRVAnalysisTests {
    static func within(_ fraction: Double, _ value: Double, _ reference: Double) -> Bool {
        abs(value - reference) <= fraction * abs(reference)
    }

    @Test func fiveMinutesOfBeatsGiveHRVAnalysisFigures() throws {
        let r = HRVFixtures.fiveMinutesReference
        let hrv = try HRVAnalysis(rrMs: HRVFixtures.fiveMinutes)
        #expect(hrv.intervals.removed == r.removed)
        let t = hrv.timeDomain
        #expect(Self.within(0.01, t.meanRRMs, r.meanRR), "mean RR \(t.meanRRMs) vs \(r.meanRR)")
        #expect(Self.within(0.01, t.meanHeartRate, r.meanHR), "mean HR \(t.meanHeartRate) vs \(r.meanHR)")
        #expect(Self.within(0.01, t.sdnnMs, r.sdnn), "SDNN \(t.sdnnMs) vs \(r.sdnn)")
        #expect(Self.within(0.01, t.rmssdMs, r.rmssd), "RMSSD \(t.rmssdMs) vs \(r.rmssd)")
        #expect(Self.within(0.01, t.pnn50, r.pnn50), "pNN50 \(t.pnn50) vs \(r.pnn50)")
        let s = try #require(hrv.spectrum)
        #expect(Self.within(0.05, s.vlf, r.vlf), "VLF \(s.vlf) vs \(r.vlf)")
        #expect(Self.within(0.05, s.lf, r.lf), "LF \(s.lf) vs \(r.lf)")
        #expect(Self.within(0.05, s.hf, r.hf), "HF \(s.hf) vs \(r.hf)")
        #expect(Self.within(0.05, s.total, r.total), "total \(s.total) vs \(r.total)")
        #expect(Self.within(0.05, s.lfOverHF, r.lfhf), "LF/HF \(s.lfOverHF) vs \(r.lfhf)")
        #expect(Self.within(0.01, try #require(hrv.stressIndex), r.si))
    }

    @Test func underTwoMinutesThereIsNoSpectrumButTheTimeDomainHolds() throws {
        let r = HRVFixtures.ninetySecondsReference
        let hrv = try HRVAnalysis(rrMs: HRVFixtures.ninetySeconds)
        #expect(hrv.spectrum == nil)
        #expect(hrv.intervals.removed == r.removed)
        #expect(Self.within(0.01, hrv.timeDomain.rmssdMs, r.rmssd))
        #expect(Self.within(0.01, hrv.timeDomain.sdnnMs, r.sdnn))
        #expect(Self.within(0.01, hrv.timeDomain.pnn50, r.pnn50))
        #expect(Self.within(0.01, try #require(hrv.stressIndex), r.si))
        #expect(hrv.readingData[Field.totalPower] == nil)
    }

    @Test func malikRemovesAPrematureBeatItsPauseAndAMissedBeat() {
        // 800 ms beats; a premature beat (500) and its compensatory pause (1100); a missed beat (1600); 2500 is implausible.
        let rr: [Double] = [800, 810, 500, 1100, 800, 790, 1600, 800, 2500, 810]
        let clean = NormalIntervals.malik(rr)
        #expect(clean.removed == 4)
        #expect(clean.milliseconds.count == rr.count)
        // Replaced by the line between the accepted neighbours: 810 … 800 over three steps.
        #expect(clean.milliseconds[2] == 810 - 10.0 / 3)
        #expect(clean.milliseconds[3] == 810 - 20.0 / 3)
        #expect(clean.milliseconds[6] == 795)
        #expect(clean.milliseconds[8] == 805)
    }

    @Test func baevskysIndexByHand() throws {
        // Bins of 50 ms: 800–849 holds 3 of 5 → AMo 60 %, Mo 0.825 s; range 900 − 760 = 0.14 s.
        let si = try #require(BaevskyStressIndex.of(nn: [800, 810, 840, 760, 900]))
        #expect(abs(si - 60 / (2 * 0.825 * 0.14)) < 1e-9)
        #expect(BaevskyStressIndex.of(nn: [800, 800, 800]) == nil)
    }

    @Test func tooFewBeatsOrTooManyArtefactsAreSaid() {
        let few = #expect(throws: HealthError.self) { try HRVAnalysis(rrMs: [800, 810, 790]) }
        #expect(few?.message.hasPrefix("3 intervals are too few for HRV") == true)
        let noisy = (0..<60).map { $0 % 3 == 0 ? 400.0 : 900.0 }
        let bad = #expect(throws: HealthError.self) { try HRVAnalysis(rrMs: noisy) }
        #expect(bad?.message.contains("of 60 intervals are artefacts or ectopic beats") == true)
    }

    @Test func aMeasurementFromBeatsIsStoredAsAnHRVMeterReading() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let meter = try await world.device(.hrvMeter, named: "Chest strap", for: service)
        let hrv = try HRVAnalysis(rrMs: HRVFixtures.fiveMinutes)
        try await service.post(NewMessage(sdid: meter.id, data: hrv.readingData))
        let stored = try #require(try await service.lastMessages(device: meter.id, count: 1, field: nil).first)
        #expect(stored.data[Field.rmssd] == .number(35.9))
        #expect(stored.data[Field.heartRate] == .number(71))
        #expect(stored.data[Field.source] == .text("beats"))
        #expect(stored.data[Field.totalPower] == .number(1371))
    }
}
