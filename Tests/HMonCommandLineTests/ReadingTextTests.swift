import HMonCommandLine
import HealthCore
import HealthModel
import Testing

/// `hmon reading list` names each value in the words the screens use, not the stored field names: "body fat",
/// not "fatRatio"; "eaten 2,176 kJ", not "calories 2,176 kJ"; an acronym stays as written ("REM").
@Suite struct ReadingTextTests {
    @Test func fieldsAreNamedInPeoplesWords() {
        let scale = ReadingText.values([Field.weight: .number(72.4), Field.fatRatio: .number(21.5), Field.muscleMass: .number(30.1)],
                                       manifest: nil)
        #expect(scale == "body fat 21.5 %, muscle 30.1 kg, weight 72.4 kg", "\(scale)")
        let meal = ReadingText.values([Field.calories: .number(520)], manifest: nil, energyUnit: .kJ)
        #expect(meal == "eaten 2,176 kJ", "\(meal)")
        let night = ReadingText.values([Field.remSleepMinutes: .number(95)], manifest: nil)
        #expect(night.hasPrefix("REM "), "\(night)")
    }

    @Test func aReadingsSourceIsSaidAndGivenToScripts() throws {
        let data: [String: FieldValue] = [Field.weight: .number(80.4), Field.source: .text("openScale · Health Connect")]
        #expect(ReadingText.values(data, manifest: BuiltInDeviceType.scale.manifest) == #"weight 80.4 kg, from "openScale · Health Connect""#)
        let reading = Message(mid: "m1", sdid: "d1", sdtid: BuiltInDeviceType.scale.deviceType.id, uid: "u1", ts: 0, cts: 0, data: data)
        let json = ListingJSON.reading(reading, device: "Scale", time: "2026-11-20T06:45:00Z", units: QuantityText(massUnit: .kg, energyUnit: .kcal))
        #expect(json["source"] as? String == "openScale · Health Connect")
        let noSource = ListingJSON.reading(Message(mid: "m2", sdid: "d1", sdtid: "t", uid: "u1", ts: 0, cts: 0, data: [Field.weight: .number(80)]),
                                           device: "Scale", time: "", units: QuantityText(massUnit: .kg, energyUnit: .kcal))
        #expect(noSource["source"] == nil, "no source is no key, not an empty one")
    }

    /// The overview's "… in 7 days" beside the days it adds up: the sum of the days as shown, not the shown
    /// unrounded sum. Seven days of −270.6 kcal each show −271 apiece: −1,897 together, where the unrounded
    /// sum (−1,894.2) would print −1,894.
    @Test func aWeeksTotalIsTheSumOfItsDaysAsShown() {
        let days = [Double](repeating: -270.6, count: 7)
        let kcal = QuantityText(massUnit: .kg, energyUnit: .kcal)
        #expect(kcal.textOfSum(days, .energy, signed: true) == "−1,897 kcal")
        #expect(kcal.text(days.reduce(0, +), .energy, signed: true) == "−1,894 kcal", "the unrounded sum, which disagrees")
        // In kJ each day shows −1,132 (−270.6 × 4.184 = −1,132.2): seven of them −7,924.
        #expect(QuantityText(massUnit: .kg, energyUnit: .kJ).textOfSum(days, .energy, signed: true) == "−7,924 kJ")
    }
}
