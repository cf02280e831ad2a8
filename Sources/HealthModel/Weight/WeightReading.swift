import Foundation

/// One weight reading, for the weight series and the BMR.
public struct WeightReading: Sendable, Equatable {
    public var date: Date
    public var kg: Double

    public init(date: Date, kg: Double) {
        self.date = date
        self.kg = kg
    }
}
