import Foundation

/// A reading that could be one measurement with another: counted (in `messages`) or kept aside in favour
/// of `countedMid`. Readings typed by hand or from before hmon noted ways (`path` nil) are always counted
/// and never set another aside: a person's own entry is theirs to delete.
public struct MeasurementCandidate: Sendable, Equatable {
    public var mid: String
    public var ts: Int64
    public var data: [String: FieldValue]
    public var path: ReadingPath?
    public var countedMid: String?

    public init(mid: String, ts: Int64, data: [String: FieldValue], path: ReadingPath?, countedMid: String? = nil) {
        self.mid = mid
        self.ts = ts
        self.data = data
        self.path = path
        self.countedMid = countedMid
    }

    public var isAside: Bool { countedMid != nil }
}

/// What to move between the counted readings and those kept aside so each measurement is counted once.
public struct AsideExchange: Sendable, Equatable {
    public struct Mark: Sendable, Equatable {
        public var mid: String
        public var countedMid: String

        public init(mid: String, countedMid: String) {
            self.mid = mid
            self.countedMid = countedMid
        }
    }

    /// Readings to keep aside (or, already aside, to point at another counted reading).
    public var setAside: [Mark] = []
    /// Readings kept aside to count again.
    public var takeBack: [String] = []
    /// Readings kept aside whose source took them back: deleted.
    public var drop: [String] = []

    public init(setAside: [Mark] = [], takeBack: [String] = [], drop: [String] = []) {
        self.setAside = setAside
        self.takeBack = takeBack
        self.drop = drop
    }

    public var isEmpty: Bool { setAside.isEmpty && takeBack.isEmpty && drop.isEmpty }
}

/// Settles which of a family's readings are counted: readings from different ways that are the same
/// measurement (`MeasurementFamily.same`) form one group, and the group's reading whose way comes first in
/// the family's `SourceOrder` is counted (the earlier, then the smaller id, between equals); the rest are
/// kept aside. Two readings by the same way are two measurements (two weigh-ins a minute apart on one
/// scale), so they never join a group by each other. Both engines apply what this decides.
///
/// A day family (`MeasurementFamily.isDayTotal`) is settled a local day at a time: the day's readings from the
/// way that comes first are all counted (a running total, or the records that add up to one) and every other
/// way's readings of that day are kept aside. `calendar` says where a day starts; other families ignore it.
public enum DuplicateSettling {
    public static func exchange(for candidates: [MeasurementCandidate], family: MeasurementFamily, order: SourceOrder,
                                calendar: Calendar = .current) -> AsideExchange {
        let members = candidates.filter { $0.path != nil && MeasurementFamily.of($0.data) == family }
            .sorted { ($0.ts, $0.mid) < ($1.ts, $1.mid) }
        if family.isDayTotal { return dayExchange(for: members, order: order, calendar: calendar) }
        var parent = Array(members.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index { index = parent[index] }
            return index
        }
        // Members are in time order and one measurement's readings are stamped within the family's reach of
        // each other, so each is compared with those after it up to that reach: a year of weigh-ins settles in
        // a few comparisons each, not one per pair.
        for one in members.indices {
            var other = one + 1
            while other < members.count, members[other].ts - members[one].ts <= family.reach {
                if members[one].path != members[other].path,
                   family.same((members[one].ts, members[one].data), (members[other].ts, members[other].data)) {
                    parent[root(other)] = root(one)
                }
                other += 1
            }
        }
        var exchange = AsideExchange()
        for group in Dictionary(grouping: members.indices, by: root).values {
            let ranked = group.map { members[$0] }.sorted { lhs, rhs in
                let (left, right) = (order.rank(lhs.path!), order.rank(rhs.path!))
                return left != right ? left < right : (lhs.ts, lhs.mid) < (rhs.ts, rhs.mid)
            }
            let counted = ranked[0]
            if counted.isAside { exchange.takeBack.append(counted.mid) }
            for other in ranked.dropFirst() where other.countedMid != counted.mid {
                exchange.setAside.append(.init(mid: other.mid, countedMid: counted.mid))
            }
        }
        exchange.takeBack.sort()
        exchange.setAside.sort { $0.mid < $1.mid }
        return exchange
    }

    /// Each local day's readings by the way first in `order`; the rest of the day's kept aside, pointing at the
    /// day's first counted reading. A day with one way counts all of it (a reading aside whose day lost the
    /// way it gave place to comes back).
    private static func dayExchange(for members: [MeasurementCandidate], order: SourceOrder, calendar: Calendar) -> AsideExchange {
        var exchange = AsideExchange()
        let days = Dictionary(grouping: members) { Day(Date(millisecondsSince1970: $0.ts), in: calendar) }
        for day in days.keys.sorted() {
            let readings = days[day]!   // members are in time order, and grouping keeps it
            let first = readings.map { order.rank($0.path!) }.min()!
            let counted = readings.filter { order.rank($0.path!) == first }
            for reading in counted where reading.isAside { exchange.takeBack.append(reading.mid) }
            let keeper = counted[0].mid
            for reading in readings where order.rank(reading.path!) != first && reading.countedMid != keeper {
                exchange.setAside.append(.init(mid: reading.mid, countedMid: keeper))
            }
        }
        exchange.takeBack.sort()
        exchange.setAside.sort { $0.mid < $1.mid }
        return exchange
    }
}
