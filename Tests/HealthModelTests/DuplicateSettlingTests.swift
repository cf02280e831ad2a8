import Foundation
@testable import HealthModel
import ModelTestSupport
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

    static func steps(_ mid: String, _ count: Double, at local: String, _ path: ReadingPath?, aside: String? = nil) -> MeasurementCandidate {
        MeasurementCandidate(mid: mid, ts: date(local).millisecondsSince1970, data: [Field.steps: .number(count)], path: path, countedMid: aside)
    }

    /// A day of steps by three ways: Health Connect's records for the day (4,100 + 5,700 + 450 = 10,250),
    /// Health Auto Export's total of 9,900 at the day's start and a watch export's 9,800 at noon. By the default
    /// order the hub counts and the other two are kept aside; the next day, which only the export has, counts
    /// the export's — except for a record of Health Connect's at 00:30 that night, which is that day's by the
    /// person's clock (Berlin), though it is still the 20th in UTC.
    @Test func aDayOfStepsCountsEveryRecordOfTheFirstWayAndNoneOfTheOthers() {
        let berlin = calendar()
        let candidates = [
            Self.steps("hc-1", 4_100, at: "2026-11-20 09:00", .healthConnect),
            Self.steps("hc-2", 5_700, at: "2026-11-20 14:00", .healthConnect),
            Self.steps("hc-3", 450, at: "2026-11-20 21:30", .healthConnect),
            Self.steps("hae", 9_900, at: "2026-11-20 00:00", .healthAutoExport),
            Self.steps("file-20", 9_800, at: "2026-11-20 12:00", .imported),
            Self.steps("file-21", 8_000, at: "2026-11-21 12:00", .imported),
            Self.steps("typed", 1_000, at: "2026-11-20 18:00", nil),
        ]
        let exchange = DuplicateSettling.exchange(for: candidates, family: .steps, order: SourceOrder(), calendar: berlin)
        #expect(exchange == AsideExchange(setAside: [.init(mid: "file-20", countedMid: "hc-1"), .init(mid: "hae", countedMid: "hc-1")]),
                "the day's first Health Connect record stands for the way; the typed 1,000 is the person's own")

        let late = candidates + [Self.steps("hc-night", 300, at: "2026-11-21 00:30", .healthConnect)]
        #expect(DuplicateSettling.exchange(for: late, family: .steps, order: SourceOrder(), calendar: berlin).setAside
                == [.init(mid: "file-20", countedMid: "hc-1"), .init(mid: "file-21", countedMid: "hc-night"), .init(mid: "hae", countedMid: "hc-1")])
        #expect(DuplicateSettling.exchange(for: late, family: .steps, order: SourceOrder(), calendar: calendar("UTC")).setAside
                == [.init(mid: "file-20", countedMid: "hc-1")],
                "in UTC the night's record is the 20th's, the 21st is the export's alone, and the total stamped at Berlin's midnight is the 19th's")
    }

    @Test func preferringAnotherWayForADaySwapsTheWholeDayAndTheDefaultSwapsItBack() {
        let berlin = calendar()
        let settled = [
            Self.steps("hc-1", 4_100, at: "2026-11-20 09:00", .healthConnect),
            Self.steps("hc-2", 6_150, at: "2026-11-20 14:00", .healthConnect),
            Self.steps("hae", 9_900, at: "2026-11-20 00:00", .healthAutoExport, aside: "hc-1"),
            Self.steps("file", 9_800, at: "2026-11-20 12:00", .imported, aside: "hc-1"),
        ]
        let preferHAE = DuplicateSettling.exchange(for: settled, family: .steps, order: SourceOrder(preferred: .healthAutoExport), calendar: berlin)
        #expect(preferHAE == AsideExchange(setAside: [.init(mid: "file", countedMid: "hae"), .init(mid: "hc-1", countedMid: "hae"),
                                                      .init(mid: "hc-2", countedMid: "hae")],
                                           takeBack: ["hae"]))
        #expect(DuplicateSettling.exchange(for: settled, family: .steps, order: SourceOrder(), calendar: berlin).isEmpty)
        // The hub's records taken back by the phone: the day is Health Auto Export's again.
        let hubGone = settled.filter { $0.path != .healthConnect }
        #expect(DuplicateSettling.exchange(for: hubGone, family: .steps, order: SourceOrder(), calendar: berlin)
                == AsideExchange(setAside: [.init(mid: "file", countedMid: "hae")], takeBack: ["hae"]))
    }
}

