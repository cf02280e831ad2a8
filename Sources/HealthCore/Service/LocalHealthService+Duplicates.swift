import Foundation
import HealthModel

/// One measurement that arrives by two ways is counted once: after each arrival, the readings of a family
/// near what it brought are settled by the person's source order (`DuplicateSettling`), and the others
/// are kept aside, whole, never lost.
extension LocalHealthService {
    /// `applyArrival` for writes that came by `path`. A write naming a reading kept aside applies to it
    /// there: sent again unchanged it is left as it is, changed it is counted anew (and settled again), taken
    /// back it is deleted.
    func applySettling(_ writes: [ArrivalWrite], userID: String, path: ReadingPath, now: Date) async throws -> [ArrivalWriteResult] {
        let named = writes.map(\.readingID)
        let aside = Dictionary(try await store.asideReadings(userID: userID, from: Int64.min, to: Int64.max, mids: named)
            .map { ($0.message.mid, $0) }, uniquingKeysWith: { first, _ in first })
        var results = [ArrivalWriteResult?](repeating: nil, count: writes.count)
        var passed: [(index: Int, write: ArrivalWrite)] = []
        var dropped: [String] = []
        var touched: [(ts: Int64, data: [String: FieldValue])] = []
        for (index, write) in writes.enumerated() {
            guard let kept = aside[write.readingID] else {
                passed.append((index, write))
                continue
            }
            switch write {
            case .delete:
                dropped.append(kept.message.mid)
                results[index] = .deleted
                touched.append((kept.message.ts, kept.message.data))
            case .put(_, let message, let sentAt):
                let result = ArrivalWriteResult.ofPut(stored: kept.message, ts: message.ts ?? kept.message.ts, fields: message.data, sentAt: sentAt)
                if result == .unchanged || result == .stale {
                    results[index] = result
                } else {
                    dropped.append(kept.message.mid)
                    passed.append((index, write))
                }
            }
        }
        // The readings deletes take back: their duplicates kept aside may be counted again.
        for (_, write) in passed {
            guard case .delete(let mid) = write else { continue }
            do {
                let gone = try await store.reading(id: mid, userID: userID)
                touched.append((gone.ts, gone.data))
            } catch HealthError.unknownReading {
                continue
            }
        }
        let applied = try await store.applyArrival(passed.map(\.write), userID: userID, path: path, at: now)
        for ((index, write), result) in zip(passed, applied) {
            // A changed reading that was aside went back into the counted ones: for its source, a change.
            results[index] = result == .added && dropped.contains(write.readingID) ? .changed : result
            if case .put(_, let message, _) = write, result == .added || result == .changed, let ts = message.ts {
                touched.append((ts, message.data))
            }
        }
        if !dropped.isEmpty { try await store.exchangeAside(AsideExchange(drop: dropped), userID: userID) }
        try await settleDuplicates(around: touched, userID: userID)
        return results.map { $0 ?? .absent }
    }

    /// Settles each family's readings near `readings` (`MeasurementFamily.reach`), windows that overlap read
    /// once.
    func settleDuplicates(around readings: [(ts: Int64, data: [String: FieldValue])], userID: String) async throws {
        var stamps: [MeasurementFamily: [Int64]] = [:]
        for reading in readings {
            if let family = MeasurementFamily.of(reading.data) { stamps[family, default: []].append(reading.ts) }
        }
        guard !stamps.isEmpty else { return }
        let orders = try await store.sourceOrders(userID: userID)
        for (family, times) in stamps.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
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
        for family in families {
            try await settleAll(family, order: orders[family] ?? SourceOrder(), userID: userID)
        }
    }

    /// Settles every reading of the family; returns how many readings kept aside it counts again. A day family
    /// is read a month of local days at a time: an export's step records run to hundreds of thousands, and
    /// a day is settled within itself alone.
    @discardableResult
    func settleAll(_ family: MeasurementFamily, order: SourceOrder, userID: String) async throws -> Int {
        guard family.isDayTotal else {
            return try await settle(family, from: .min, to: .max, order: order, userID: userID).takeBack.count
        }
        guard let first = try await store.firstReadingTime(userID: userID) else { return 0 }
        let last = Day(Date(), in: dayCalendar).adding(days: 2)
        var day = Day(Date(millisecondsSince1970: first), in: dayCalendar)
        var countedAgain = 0
        while day < last {
            let next = day.adding(days: 31)
            countedAgain += try await settle(family, from: day.start(in: dayCalendar).millisecondsSince1970,
                                             to: next.start(in: dayCalendar).millisecondsSince1970 - 1,
                                             order: order, userID: userID).takeBack.count
            day = next
        }
        return countedAgain
    }

    /// Settles the family's readings stamped from `from` to `to`; returns what it moved.
    @discardableResult
    func settle(_ family: MeasurementFamily, from: Int64, to: Int64, order: SourceOrder, userID: String) async throws -> AsideExchange {
        let candidates = try await store.measurementCandidates(userID: userID, fields: family.fields, from: from, to: to)
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
