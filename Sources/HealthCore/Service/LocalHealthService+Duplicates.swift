import Foundation
import HealthModel

/// One measurement that arrives by two ways is counted once: after each arrival, the readings of a family
/// near what it brought are settled by the person's source order (`DuplicateSettling`), and the others
/// are kept aside, whole, never lost.
extension LocalHealthService {
    /// `applyArrival` for writes that came by `path`. A write naming a reading kept aside applies to it
    /// there: sent again unchanged it is left as it is, changed it is counted anew (and settled again), taken
    /// back it is deleted. The rest go to the store as one transaction, asked for one at a time; the readings
    /// kept aside they name are looked up `asideLookup` writes at a time, and what settling needs of each
    /// write is its family and time, so no step holds the whole arrival's messages.
    func applySettling(_ writes: some ArrivalWriteList, userID: String, path: ReadingPath, now: Date) async throws -> [ArrivalWriteResult] {
        var results = [ArrivalWriteResult?](repeating: nil, count: writes.count)
        var passed: [Int] = []
        passed.reserveCapacity(writes.count)
        var dropped: Set<String> = []
        var touched = TouchedStamps()
        for first in stride(from: 0, to: writes.count, by: Self.asideLookup) {
            let places = first..<min(writes.count, first + Self.asideLookup)
            let named = places.map { writes.readingID(at: $0) }
            let aside = Dictionary(try await store.asideReadings(userID: userID, from: Int64.min, to: Int64.max, mids: named)
                .map { ($0.message.mid, $0) }, uniquingKeysWith: { first, _ in first })
            for (place, id) in zip(places, named) {
                guard let kept = aside[id] else {
                    passed.append(place)
                    continue
                }
                switch writes.write(at: place) {
                case .delete:
                    dropped.insert(kept.message.mid)
                    results[place] = .deleted
                    touched.add(kept.message.ts, kept.message.data)
                case .put(_, let message, let sentAt):
                    let result = ArrivalWriteResult.ofPut(stored: kept.message, ts: message.ts ?? kept.message.ts, fields: message.data, sentAt: sentAt)
                    if result == .unchanged || result == .stale {
                        results[place] = result
                    } else {
                        dropped.insert(kept.message.mid)
                        passed.append(place)
                    }
                }
            }
        }
        // The readings deletes take back: their duplicates kept aside may be counted again.
        for place in passed {
            guard let mid = writes.deletedID(at: place) else { continue }
            do {
                let gone = try await store.reading(id: mid, userID: userID)
                touched.add(gone.ts, gone.data)
            } catch HealthError.unknownReading {
                continue
            }
        }
        let applied = try await store.applyArrival(ArrivalWriteSelection(writes, places: passed), userID: userID, path: path, at: now)
        for (place, result) in zip(passed, applied) {
            // A changed reading that was aside went back into the counted ones: for its source, a change.
            results[place] = result == .added && !dropped.isEmpty && dropped.contains(writes.readingID(at: place)) ? .changed : result
            if result == .added || result == .changed, case .put(_, let message, _) = writes.write(at: place), let ts = message.ts {
                touched.add(ts, message.data)
            }
        }
        if !dropped.isEmpty { try await store.exchangeAside(AsideExchange(drop: dropped.sorted()), userID: userID) }
        try await settleDuplicates(around: touched, userID: userID)
        return results.map { $0 ?? .absent }
    }

    /// How many writes' ids one look-up of readings kept aside names.
    static let asideLookup = 5_000

    /// Settles each family's readings near `readings` (`MeasurementFamily.reach`), windows that overlap read
    /// once.
    func settleDuplicates(around readings: [(ts: Int64, data: [String: FieldValue])], userID: String) async throws {
        var touched = TouchedStamps()
        for reading in readings { touched.add(reading.ts, reading.data) }
        try await settleDuplicates(around: touched, userID: userID)
    }

    func settleDuplicates(around touched: TouchedStamps, userID: String) async throws {
        guard !touched.stamps.isEmpty else { return }
        let orders = try await store.sourceOrders(userID: userID)
        for (family, times) in touched.stamps.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            var windows: [ClosedRange<Int64>] = []
            for ts in times.sorted() {
                // Stamps are checked times (1970 to a day ahead), far from the ends of Int64.
                let window = family.isDayTotal ? localDay(of: ts) : (ts - 2 * family.reach)...(ts + 2 * family.reach)
                if let last = windows.last, last.upperBound >= window.lowerBound {
                    windows[windows.count - 1] = last.lowerBound...window.upperBound
                } else {
                    windows.append(window)
                }
            }
            for window in windows {
                try await settle(family, from: window.lowerBound, to: window.upperBound, order: orders[family] ?? SourceOrder(), userID: userID)
            }
        }
    }

    /// After an import: every reading of each family the import added to is settled (an import says how many
    /// it added of each kind, not when), so a file's weigh-in or night beside a link's is counted once.
    public func settleDuplicates(after tally: ImportTally) async throws {
        let userID = try requireUser()
        let families = MeasurementFamily.allCases.filter { family in
            tally.added.contains { kind, count in count > 0 && family.fields.contains(kind.field) }
        }
        guard !families.isEmpty else { return }
        let orders = try await store.sourceOrders(userID: userID)
        // One look at each month for every day family the import added to, not one per family.
        let months = try await monthsWithOtherWays(families.filter(\.isDayTotal), userID: userID)
        for family in families {
            try await settleAll(family, order: orders[family] ?? SourceOrder(), userID: userID, months: months)
        }
    }

    /// Settles every reading of the family; returns how many readings kept aside it counts again. A day family
    /// is read a month of local days at a time (`months`, else `monthsWithOtherWays`): an export's step records
    /// run to hundreds of thousands, and a day is settled within itself alone.
    @discardableResult
    func settleAll(_ family: MeasurementFamily, order: SourceOrder, userID: String,
                   months: [ClosedRange<Int64>]? = nil) async throws -> Int {
        guard family.isDayTotal else {
            return try await settle(family, from: .min, to: .max, order: order, userID: userID).takeBack.count
        }
        var countedAgain = 0
        let months = if let months { months } else { try await monthsWithOtherWays([family], userID: userID) }
        for month in months {
            countedAgain += try await settle(family, from: month.lowerBound, to: month.upperBound, order: order, userID: userID).takeBack.count
        }
        return countedAgain
    }

    /// The runs of 31 local days, from the user's first reading to tomorrow, that hold a reading of any of the
    /// day `families` that came by a way other than a file import: files are one way, so a month of imports
    /// alone has nothing to settle, and is not read again.
    func monthsWithOtherWays(_ families: [MeasurementFamily], userID: String) async throws -> [ClosedRange<Int64>] {
        let fields = families.flatMap(\.fields)
        guard !fields.isEmpty, let first = try await store.firstReadingTime(userID: userID) else { return [] }
        let last = Day(Date(), in: dayCalendar).adding(days: 2)
        var day = Day(Date(millisecondsSince1970: first), in: dayCalendar)
        var months: [ClosedRange<Int64>] = []
        while day < last {
            let next = day.adding(days: 31)
            let month = day.start(in: dayCalendar).millisecondsSince1970...(next.start(in: dayCalendar).millisecondsSince1970 - 1)
            day = next
            if try await !store.measurementCandidates(userID: userID, fields: fields, from: month.lowerBound, to: month.upperBound,
                                                      otherThan: .imported).isEmpty {
                months.append(month)
            }
        }
        return months
    }

    /// Settles the family's readings stamped from `from` to `to`; returns what it moved.
    @discardableResult
    func settle(_ family: MeasurementFamily, from: Int64, to: Int64, order: SourceOrder, userID: String) async throws -> AsideExchange {
        let candidates = try await store.measurementCandidates(userID: userID, fields: family.fields, from: from, to: to, otherThan: nil)
        let exchange = DuplicateSettling.exchange(for: candidates, family: family, order: order, calendar: dayCalendar)
        try await store.exchangeAside(exchange, userID: userID)
        return exchange
    }

    /// The whole local day (`dayCalendar`) a stamp falls on, as stamps: a day family is settled a day at a
    /// time, and a day read in part would look like a day of one way.
    private func localDay(of ts: Int64) -> ClosedRange<Int64> {
        let day = Day(Date(millisecondsSince1970: ts), in: dayCalendar)
        return day.start(in: dayCalendar).millisecondsSince1970...(day.adding(days: 1).start(in: dayCalendar).millisecondsSince1970 - 1)
    }

    // MARK: The person's order

    /// The acting user's source order of each family, the default where they chose none.
    public func sourceOrders() async throws -> [MeasurementFamily: SourceOrder] {
        let chosen = try await store.sourceOrders(userID: try requireUser())
        return Dictionary(uniqueKeysWithValues: MeasurementFamily.allCases.map { ($0, chosen[$0] ?? SourceOrder()) })
    }

    /// Puts `path` first for `family` (nil: back to the default) and settles every reading of the family
    /// by the new order; returns how many readings kept aside it counts again (each in place of another).
    @discardableResult
    public func preferSource(_ path: ReadingPath?, for family: MeasurementFamily) async throws -> Int {
        let userID = try requireUser()
        let order = SourceOrder(preferred: path)
        try await store.setSourceOrder(order, family: family, userID: userID)
        return try await settleAll(family, order: order, userID: userID)
    }

    /// The acting user's readings kept aside stamped in `from..<to`, oldest first.
    public func asideReadings(from: Int64, to: Int64) async throws -> [AsideReading] {
        try await store.asideReadings(userID: try requireUser(), from: from, to: to, mids: nil)
    }
}

extension ArrivalWrite {
    /// The id of the reading the write puts or deletes.
    var readingID: String {
        switch self {
        case .put(let mid, _, _): mid
        case .delete(let mid): mid
        }
    }
}

/// The times of readings an arrival touched, by family: all settling needs of them.
struct TouchedStamps {
    var stamps: [MeasurementFamily: [Int64]] = [:]

    mutating func add(_ ts: Int64, _ data: [String: FieldValue]) {
        if let family = MeasurementFamily.of(data) { stamps[family, default: []].append(ts) }
    }
}
