import Foundation
import HealthModel
import Testing

/// A temperature is kept in °C and written in the person's units: °F for someone who weighs in pounds. A
/// body temperature converts as a temperature (×1.8 + 32: 37.0 °C is 98.6 °F); a wrist's change from its
/// baseline as a difference (×1.8 and no offset: −0.25 °C is −0.45 °F, not 31.55 °F).
struct TemperatureUnitTests {
    @Test func aBodyTemperatureIsInFahrenheitWithPounds() {
        let imperial = QuantityText(massUnit: .lb)
        #expect(imperial.text(37.0, .temperature) == "98.6 °F")
        #expect(imperial.shownValue(36.6, .temperature) == 97.9, "36.6 × 1.8 + 32 = 97.88, shown to a tenth")
        #expect(imperial.unit(.temperature) == "°F")
        #expect(QuantityText(massUnit: .kg).text(37.0, .temperature) == "37.0 °C")
        #expect(QuantityText(Profile(massUnit: .lb)).temperatureUnit == .fahrenheit)
        #expect(QuantityText(Profile()).temperatureUnit == .celsius)
    }

    @Test func aTemperatureChangeConvertsAsADifference() {
        let imperial = QuantityText(massUnit: .lb)
        #expect(imperial.text(-0.25, .temperatureChange, signed: true) == "−0.45 °F")
        #expect(imperial.text(0.5, .temperatureChange, signed: true) == "+0.90 °F")
        #expect(imperial.text(0, .temperatureChange, signed: true) == "0.00 °F", "no change stays none: no 32 added")
        #expect(QuantityText(massUnit: .kg).text(-0.25, .temperatureChange, signed: true) == "−0.25 °C")
    }
}
