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

/// What one local day's readings add up to, per kind a day adds up (`ReadingKind.daySlots`): the input of
/// `DailyAttributes`. The stores sum these inside the database; `DayTotals.add(_:)` does the same from
/// readings in hand (tests, other stores).
public struct DayTotals: Sendable, Equatable {
    /// One sum and count per slot, in `ReadingKind.daySlots` order.
    private var slots = [SumCount](repeating: SumCount(), count: ReadingKind.daySlots.count)

    public init() {}

    /// The sum and count of one kind's readings; empty for a kind a day does not add up.
    public subscript(kind: ReadingKind) -> SumCount {
        get { kind.daySlot.map { slots[$0] } ?? SumCount() }
        set { if let slot = kind.daySlot { slots[slot] = newValue } }
    }

    /// Adds one reading's fields.
    public mutating func add(_ data: [String: FieldValue]) {
        for (slot, kind) in ReadingKind.daySlots.enumerated() {
            if let v = data[kind.field]?.number { slots[slot].add(v) }
        }
    }

    /// Sets one sum by its slot, the position of its kind in `ReadingKind.daySlots` (the stores' queries
    /// select one sum and count per slot in that order).
    package mutating func set(slot: Int, _ value: SumCount) { slots[slot] = value }

    /// The sums as the store keeps them between runs: the slots' signature, then sum and count per slot,
    /// numbers as Swift prints them (which read back exactly). Sums kept before a kind was added (or in
    /// another order) carry another signature and are summed again.
    package var cacheText: String {
        Self.signature + ":" + slots.map { "\($0.sum) \($0.count)" }.joined(separator: ";")
    }

    package init?(cacheText: String) {
        guard let colon = cacheText.firstIndex(of: ":"), cacheText[..<colon] == Self.signature else { return nil }
        let parts = cacheText[cacheText.index(after: colon)...].split(separator: ";")
        guard parts.count == slots.count else { return nil }
        for (i, part) in parts.enumerated() {
            let pair = part.split(separator: " ")
            guard pair.count == 2, let sum = Double(pair[0]), let count = Int(pair[1]) else { return nil }
            slots[i] = SumCount(sum: sum, count: count)
        }
    }

    /// The slots' fields in order, hashed (FNV-1a, stable across runs unlike `Hasher`).
    static let signature: String = {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ReadingKind.daySlots.map(\.field).joined(separator: ",").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }()

    /// Groups readings by the local day `calendar` puts them in.
    public static func byDay(_ readings: [(date: Date, data: [String: FieldValue])], calendar: Calendar) -> [Day: DayTotals] {
        var result: [Day: DayTotals] = [:]
        for reading in readings {
            result[Day(reading.date, in: calendar), default: DayTotals()].add(reading.data)
        }
        return result
    }
}
