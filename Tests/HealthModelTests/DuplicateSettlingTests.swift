import Foundation
@testable import HealthModel
import Testing

/// One measurement by two ways, counted once (`DuplicateSettling`, docs/methods.md "One measurement, one
/// reading"): cases worked by hand. 06:45 is 1_763_621_100_000 ms (2025-11-20T06:45:00Z).
@Suite struct DuplicateSettlingTests {
    static let t0: Int64 = 1_763_621_100_000

    static func weighIn(_ mid: String, _ kg: Double, secondsAfter: Int64 = 0, _ path: ReadingPath?, aside: String? = nil) -> MeasurementCandidate {
        MeasurementCandidate(mid: mid, ts: t0 + secondsAfter * 1000, data: [Field.weight: .number(kg)], path: path, countedMid: aside)
    }

    static func night(_ mid: String, endingHoursAfter hours: Int64, inBed: Double, _ path: ReadingPath) -> MeasurementCandidate {
        MeasurementCandidate(mid: mid, ts: t0 + hours * 3_600_000,
                             data: [Field.sleepMinutes: .number(inBed - 30), Field.inBedMinutes: .number(inBed)], path: path)
    }

    @Test func theDevicesOwnLinkIsCountedBeforeThePhoneHubAndTheHubsCopyIsKeptAside() {
        // openScale's 80.4 and the same weigh-in through Health Connect, a float's width apart and 5 s later.
        let exchange = DuplicateSettling.exchange(for: [Self.weighIn("hc", 80.40000152, secondsAfter: 5, .healthConnect),
                                                        Self.weighIn("os", 80.4, .openScale)],
                                                  family: .weight, order: SourceOrder())
        #expect(exchange == AsideExchange(setAside: [.init(mid: "hc", countedMid: "os")]))
    }

    @Test func preferringTheHubSwapsThemAndTheDefaultSwapsThemBack() {
        let settled = [Self.weighIn("hc", 80.4, .healthConnect, aside: "os"), Self.weighIn("os", 80.4, .openScale)]
        let preferHub = DuplicateSettling.exchange(for: settled, family: .weight, order: SourceOrder(preferred: .healthConnect))
        #expect(preferHub == AsideExchange(setAside: [.init(mid: "os", countedMid: "hc")], takeBack: ["hc"]))
        #expect(DuplicateSettling.exchange(for: settled, family: .weight, order: SourceOrder()).isEmpty, "already as the default has it")
    }

    @Test func differentWeightsFarApartTimesTheSameWayAndTypedReadingsAreEachCounted() {
        let candidates = [
            Self.weighIn("os", 80.4, .openScale),
            Self.weighIn("hc-other", 80.5, secondsAfter: 10, .healthConnect),       // 0.1 kg apart: another weigh-in
            Self.weighIn("hc-later", 80.4, secondsAfter: 160, .healthConnect),      // 2 min 10 s after the later one: another
            Self.weighIn("os-again", 80.4, secondsAfter: 30, .openScale),           // the same scale twice: two weigh-ins
            Self.weighIn("typed", 80.4, secondsAfter: 1, nil),                      // typed by hand: the person's own
        ]
        #expect(DuplicateSettling.exchange(for: candidates, family: .weight, order: SourceOrder()).isEmpty)
    }

    @Test func aReadingKeptAsideWhoseCountedOneIsGoneIsCountedAgain() {
        let exchange = DuplicateSettling.exchange(for: [Self.weighIn("hc", 80.4, .healthConnect, aside: "os-deleted")],
                                                  family: .weight, order: SourceOrder())
        #expect(exchange == AsideExchange(takeBack: ["hc"]))
    }

    @Test func overlappingNightsAreOneAndTheRingCountsBeforeThePhone() {
        // Oura's night 23:00–06:00 (420 min in bed) and Health Connect's 23:30–06:15 (405 min): they overlap.
        let oura = Self.night("oura", endingHoursAfter: 0, inBed: 420, .oura)
        var hub = Self.night("hc", endingHoursAfter: 0, inBed: 405, .healthConnect)
        hub.ts += 15 * 60_000
        #expect(DuplicateSettling.exchange(for: [hub, oura], family: .sleep, order: SourceOrder())
                == AsideExchange(setAside: [.init(mid: "hc", countedMid: "oura")]))
        // The next night (ending 24 h later, 7 h in bed) does not overlap the first.
        let next = Self.night("hc-next", endingHoursAfter: 24, inBed: 420, .healthConnect)
        #expect(DuplicateSettling.exchange(for: [oura, next], family: .sleep, order: SourceOrder()).isEmpty)
    }

    @Test func theOrderPutsThePreferredWayFirstAndKeepsTheRestAsTheDefaultHasThem() {
        #expect(SourceOrder().paths == [.openScale, .withings, .oura, .healthConnect, .healthAutoExport, .imported])
        #expect(SourceOrder(preferred: .healthConnect).paths == [.healthConnect, .openScale, .withings, .oura, .healthAutoExport, .imported])
    }
}
