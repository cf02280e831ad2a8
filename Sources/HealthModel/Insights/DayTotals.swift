import Foundation

/// A running sum and count, for the fields a day may have several readings of.
public struct SumCount: Sendable, Equatable {
    public var sum = 0.0
    public var count = 0

    public init(sum: Double = 0, count: Int = 0) {
        self.sum = sum
        self.count = count
    }

    public mutating func add(_ value: Double) {
        sum += value
        count += 1
    }

    public var mean: Double? { count > 0 ? sum / Double(count) : nil }
    public var total: Double? { count > 0 ? sum : nil }
}

/// What one local day's readings add up to, per field: the input of `DailyAttributes`. The store sums
/// these inside SQLite; `DayTotals.add(_:)` does the same from readings in hand (tests, other stores).
public struct DayTotals: Sendable, Equatable {
    public var weight = SumCount()
    public var fatRatio = SumCount()
    public var fatFreeMass = SumCount()
    public var activeEnergy = SumCount()
    public var basalEnergy = SumCount()
    public var consumed = SumCount()
    public var steps = SumCount()
    public var restingHeartRate = SumCount()
    /// RMSSD where an HRV meter measured it, else a watch's SDNN (Apple Health's only HRV figure).
    public var rmssd = SumCount()
    public var sdnn = SumCount()
    public var stress = SumCount()

    public init() {}

    /// Adds one reading's fields.
    public mutating func add(_ data: [String: FieldValue]) {
        func number(_ field: String) -> Double? { data[field]?.number }
        if let v = number(Field.weight) { weight.add(v) }
        if let v = number(Field.fatRatio) { fatRatio.add(v) }
        if let v = number(Field.fatFreeMass) { fatFreeMass.add(v) }
        if let v = number(Field.activeEnergy) { activeEnergy.add(v) }
        if let v = number(Field.basalEnergy) { basalEnergy.add(v) }
        if let v = number(Field.calories) { consumed.add(v) }
        if let v = number(Field.steps) { steps.add(v) }
        if let v = number(Field.restingHeartRate) { restingHeartRate.add(v) }
        if let v = number(Field.rmssd) { rmssd.add(v) }
        if let v = number(Field.heartRateVariabilitySDNN) { sdnn.add(v) }
        if let v = number(Field.stress) { stress.add(v) }
    }

    /// Sets one sum by its position in the store's query (`LocalStore.dayTotals`).
    package mutating func set(column: Int, _ value: SumCount) {
        switch column {
        case 0: weight = value
        case 1: activeEnergy = value
        case 2: basalEnergy = value
        case 3: consumed = value
        case 4: fatRatio = value
        case 5: fatFreeMass = value
        case 6: steps = value
        case 7: restingHeartRate = value
        case 8: rmssd = value
        case 9: sdnn = value
        case 10: stress = value
        default: preconditionFailure("no day-total column \(column)")
        }
    }

    /// The sums as the store keeps them between runs: sum and count per column, in `set(column:)` order,
    /// numbers as Swift prints them (which read back exactly).
    package var cacheText: String {
        (0..<Self.columnCount).map { i in let v = get(column: i); return "\(v.sum) \(v.count)" }.joined(separator: ";")
    }

    package init?(cacheText: String) {
        let parts = cacheText.split(separator: ";")
        guard parts.count == Self.columnCount else { return nil }
        for (i, part) in parts.enumerated() {
            let pair = part.split(separator: " ")
            guard pair.count == 2, let sum = Double(pair[0]), let count = Int(pair[1]) else { return nil }
            set(column: i, SumCount(sum: sum, count: count))
        }
    }

    static let columnCount = 11

    package func get(column: Int) -> SumCount {
        switch column {
        case 0: weight
        case 1: activeEnergy
        case 2: basalEnergy
        case 3: consumed
        case 4: fatRatio
        case 5: fatFreeMass
        case 6: steps
        case 7: restingHeartRate
        case 8: rmssd
        case 9: sdnn
        default: stress
        }
    }

    /// Groups readings by the local day `calendar` puts them in.
    public static func byDay(_ readings: [(date: Date, data: [String: FieldValue])], calendar: Calendar) -> [Day: DayTotals] {
        var result: [Day: DayTotals] = [:]
        for reading in readings {
            result[Day(reading.date, in: calendar), default: DayTotals()].add(reading.data)
        }
        return result
    }
}
