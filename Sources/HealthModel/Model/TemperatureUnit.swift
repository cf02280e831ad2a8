import Foundation

/// How a temperature is written: in °C, or in °F for a person who reads imperial units. hmon keeps every
/// temperature in °C; the profile has one choice of units (kg or lb), and a person who weighs in pounds
/// reads a thermometer in Fahrenheit, so the temperature unit follows it rather than being a second choice.
public enum TemperatureUnit: String, Sendable, CaseIterable {
    case celsius = "°C"
    case fahrenheit = "°F"

    /// °F with pounds, °C with kilograms.
    public init(following massUnit: MassUnit) {
        self = massUnit == .lb ? .fahrenheit : .celsius
    }

    /// A temperature kept in °C, in this unit: 37.0 °C is 98.6 °F.
    public func fromCelsius(_ celsius: Double) -> Double {
        self == .celsius ? celsius : celsius * 1.8 + 32
    }

    /// A difference of temperatures kept in °C (a wrist's change from its baseline), in this unit: a
    /// degree Celsius is 1.8 degrees Fahrenheit, and a difference has no zero to move.
    public func fromCelsiusDifference(_ celsius: Double) -> Double {
        self == .celsius ? celsius : celsius * 1.8
    }
}
