import HMonCommandLine
import HealthCore
import HealthModel
import Testing

/// `hmon reading list` writes a temperature in the person's units, as the screens do: °F for someone who
/// weighs in pounds, a wrist's change from its baseline as a signed difference; `--json` gives the figure and
/// unit the text shows.
@Suite struct ReadingTextTemperatureTests {
    @Test func temperaturesAreInThePersonsUnits() throws {
        #expect(ReadingText.values([Field.bodyTemperature: .number(37.0)], manifest: nil) == "temperature 37.0 °C")
        #expect(ReadingText.values([Field.bodyTemperature: .number(37.0)], manifest: nil, massUnit: .lb) == "temperature 98.6 °F")
        #expect(ReadingText.values([Field.skinTemperatureChange: .number(-0.25)], manifest: nil, massUnit: .lb)
                == "skin temp. change −0.45 °F")
        #expect(ReadingText.values([Field.skinTemperatureChange: .number(0.3)], manifest: nil) == "skin temp. change +0.30 °C")

        let reading = Message(mid: "m1", sdid: "d1", sdtid: "t", uid: "u1", ts: 0, cts: 0, data: [Field.bodyTemperature: .number(37.0)])
        let json = ListingJSON.reading(reading, device: "Watch", time: "", units: QuantityText(Profile(massUnit: .lb)))
        #expect((json["values"] as? [String: Any])?[Field.bodyTemperature] as? Double == 98.6)
        #expect((json["units"] as? [String: String])?[Field.bodyTemperature] == "°F")
    }
}
