import CheckedNumbers
import Crypto
import Foundation
import HealthCore
import HealthModel

/// The body of Withings' `action=getmeas` answer (`Measure - Getmeas` in developer.withings.com's API
/// reference): measure groups, each one weigh-in of the scale with the figures it took at once.
public struct WithingsMeasureBody: Decodable, Sendable, Equatable {
    public var updatetime: Int64?
    public var timezone: String?
    public var measuregrps: [WithingsMeasureGroup]
    /// 1 when another page follows: ask again with `offset`.
    public var more: Int?
    public var offset: Int?

    private enum CodingKeys: String, CodingKey { case updatetime, timezone, measuregrps, more, offset }

    /// `updatetime` is read only when it is a number: the documented example writes it as a placeholder
    /// string, and a fetch without it just asks from the same `lastupdate` next time.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        updatetime = try? c.decodeIfPresent(Int64.self, forKey: .updatetime)
        timezone = try? c.decodeIfPresent(String.self, forKey: .timezone)
        measuregrps = try c.decodeIfPresent([WithingsMeasureGroup].self, forKey: .measuregrps) ?? []
        more = try? c.decodeIfPresent(Int.self, forKey: .more)
        offset = try? c.decodeIfPresent(Int.self, forKey: .offset)
    }
}

public struct WithingsMeasureGroup: Decodable, Sendable, Equatable {
    public var grpid: Int64
    /// Who the group is attributed to and how sure Withings is (see `WithingsAttribution`).
    public var attrib: Int
    /// When it was measured, seconds since 1970.
    public var date: Int64
    public var deviceid: String?
    public var measures: [WithingsMeasure]
}

/// One figure: `value × 10^unit` in the type's unit (type 1, weight: 65750 and -3 are 65.750 kg).
public struct WithingsMeasure: Decodable, Sendable, Equatable {
    public var value: Int64
    public var type: Int
    public var unit: Int

    public init(value: Int64, type: Int, unit: Int) {
        self.value = value
        self.type = type
        self.unit = unit
    }

    /// The figure as Withings defines it, by exact division for a negative `unit` (65750 / 10^3 is the
    /// double nearest 65.75; multiplying by 0.001 need not be).
    public var decoded: Double {
        guard unit < 0 else { return Double(value) * pow(10, Double(unit)) }
        // Negated as a Double: `-unit` traps for Int.min, which a fuzzer once sent as the unit.
        return Double(value) / pow(10, -Double(unit))
    }
}

/// Which measure groups are kept, by their `attrib`:
/// - 0, the device, attributed to the person without doubt; 2, entered by hand; 4, entered by hand at the
///   account's creation; 7 and 8, confirmed by the person (an ambiguous weigh-in they claimed): kept.
/// - 1, the device, ambiguous (it could be another person who stepped on the scale): skipped and counted,
///   so nobody else's weight lands in the person's history. They can claim it in the Withings app, which
///   turns it into a kept group on the next fetch.
/// - anything else (a value Withings may add): skipped and counted by its value.
public enum WithingsAttribution {
    public static let kept: Set<Int> = [0, 2, 4, 7, 8]
    public static let ambiguous = 1
}

/// What a fetch of measure groups turns into: one reading per kept group, on the person's scale.
public struct WithingsWeighIns: Sendable, Equatable {
    public struct WeighIn: Sendable, Equatable {
        public var grpid: Int64
        /// When it was measured, ms since 1970.
        public var timestamp: Int64
        /// The scale's fields of the kinds Withings measures (`ReadingKind.withings`) and `source`.
        public var data: [String: FieldValue]
    }

    public var weighIns: [WeighIn] = []
    /// Groups attributed ambiguously (attrib 1): not kept.
    public var ambiguous = 0
    /// Groups with another attrib not kept, by attrib.
    public var otherAttribs: [Int: Int] = [:]
    /// Measures of types hmon does not keep (heart rate, bone mass…), by type: counted, not stored.
    public var otherTypes: [Int: Int] = [:]
    /// Kept groups dated outside the API's window (before 2000-01-01, more than a day ahead, or beyond
    /// what milliseconds can hold): not kept, by group id with its date as Withings gave it.
    public var outOfWindow: [Dated] = []

    /// Kept groups with a figure no reading may hold (a weight of 1e300 kg, `unit` 400): not kept, with why.
    /// One such group would otherwise refuse the whole fetch's batch, at every poll.
    public var refusedValues: [String] = []

    /// A group's id and its date (seconds since 1970) as Withings gave them.
    public struct Dated: Sendable, Equatable {
        public var grpid: Int64
        public var date: Int64
    }

    /// Kept groups refused for their date or a figure: what the server's log warns of.
    public var refusedGroups: Int { outOfWindow.count + refusedValues.count }

    /// The value each source field carries, readings' `source`.
    public static let source = "Withings"

    /// The Withings measure types hmon keeps, with the scale's field each lands in (units as Withings gives
    /// them: kg and %), as the kinds' table names them (`ReadingKind.withings`).
    public static let fields: [Int: String] = Dictionary(uniqueKeysWithValues: ReadingKind.allCases.compactMap { kind in
        kind.withings.map { ($0.meastype, kind.field) }
    })

    /// The types to ask `getmeas` for (`meastypes`).
    public static let measureTypes = fields.keys.sorted().map(String.init).joined(separator: ",")

    public init() {}

    /// Decodes groups as Withings defines them; groups that are not kept, and measures of other types,
    /// are counted. A group with no kept measure (only a heart rate) makes no reading. `now` bounds the
    /// dates kept: a group dated before 2000 or more than a day after `now` is counted, not kept.
    public init(_ groups: [WithingsMeasureGroup], now: Date) {
        for group in groups { add(group, now: now) }
    }

    public mutating func add(_ group: WithingsMeasureGroup, now: Date) {
        guard WithingsAttribution.kept.contains(group.attrib) else {
            if group.attrib == WithingsAttribution.ambiguous { ambiguous += 1 } else { otherAttribs[group.attrib, default: 0] += 1 }
            return
        }
        // The date is Withings' word, not a fact: seconds beyond what milliseconds hold trapped here once
        // and ended the server at every poll. Held to the API's window, as a posted reading is.
        guard let timestamp = Int64(millisecondsFromSeconds: group.date),
              StoreRules.isInPostedWindow(timestamp, now: now.millisecondsSince1970) else {
            outOfWindow.append(Dated(grpid: group.grpid, date: group.date))
            return
        }
        var data: [String: FieldValue] = [:]
        var massesOfPercentages: [(field: String, kg: Double)] = []
        for measure in group.measures {
            guard let kind = ReadingKind.withings(meastype: measure.type), let withings = kind.withings else {
                otherTypes[measure.type, default: 0] += 1
                continue
            }
            if withings.percentOfWeight {
                massesOfPercentages.append((kind.field, measure.decoded))
                continue
            }
            if let refusal = Self.refusal(of: measure.decoded, as: kind.field, in: group) {
                refusedValues.append(refusal)
                return
            }
            data[kind.field] = .number(measure.decoded)
        }
        // A mass hmon keeps as a share of the body: only with the weight measured in the same group.
        if let weight = data[Field.weight]?.number, weight > 0 {
            for (field, kg) in massesOfPercentages {
                let share = kg * 100 / weight
                if let refusal = Self.refusal(of: share, as: field, in: group) {
                    refusedValues.append(refusal)
                    return
                }
                data[field] = .number(share)
            }
        }
        guard !data.isEmpty else { return }
        data[Field.source] = .text(Self.source)
        weighIns.append(WeighIn(grpid: group.grpid, timestamp: timestamp, data: data))
    }

    /// Why a figure is refused by the rules every reading meets (the whole group is then skipped), or nil.
    private static func refusal(of value: Double, as field: String, in group: WithingsMeasureGroup) -> String? {
        do {
            try ReadingRules.check(field: field, value: value)
            return nil
        } catch let refused as HealthError {
            return "grpid \(group.grpid): \(refused.message)"
        } catch {
            return "grpid \(group.grpid): \(field) is refused"
        }
    }

    /// Readings not kept, as a person reads them: "1 ambiguous weigh-in skipped (claim it in the Withings app)".
    public var skippedText: [String] {
        var lines: [String] = []
        if ambiguous > 0 {
            lines.append("\(ambiguous) ambiguous weigh-in\(ambiguous == 1 ? "" : "s") skipped (attrib 1: it may be someone else's; "
                         + "claim it in the Withings app to have it kept)")
        }
        for (attrib, count) in otherAttribs.sorted(by: { $0.key < $1.key }) {
            lines.append("\(count) measure group\(count == 1 ? "" : "s") with attrib \(attrib) skipped")
        }
        if !outOfWindow.isEmpty {
            let shown = outOfWindow.prefix(5).map { "grpid \($0.grpid) dated \($0.date)" }.joined(separator: ", ")
            let count = outOfWindow.count
            lines.append("\(count) measure group\(count == 1 ? "" : "s") skipped: dated before 2000-01-01 or more than a day ahead "
                         + "(\(shown)\(count > 5 ? ", …" : "")); correct the date in the Withings app to have it kept")
        }
        if !refusedValues.isEmpty {
            let count = refusedValues.count
            lines.append("\(count) measure group\(count == 1 ? "" : "s") skipped for a figure no reading may hold ("
                         + refusedValues.prefix(5).joined(separator: "; ") + (count > 5 ? "; …" : "") + ")")
        }
        let others = otherTypes.values.reduce(0, +)
        if others > 0 {
            let types = otherTypes.keys.sorted().map(String.init).joined(separator: ", ")
            lines.append("\(others) measure\(others == 1 ? "" : "s") of other types not kept (type \(types))")
        }
        return lines
    }

    /// A weigh-in's reading id: 12 hex digits of its time (as every reading id), then 20 of SHA-256 over
    /// the user and the group's id. The same group fetched again gets the same id and adds nothing.
    public static func mid(userID: String, grpid: Int64, timestamp: Int64) -> String {
        let digest = SHA256.hash(data: Data("withings\u{1F}\(userID)\u{1F}\(grpid)".utf8))
        let time = String(UInt64(max(0, timestamp)), radix: 16)
        let prefix = String(repeating: "0", count: max(0, 12 - time.count)) + time.suffix(12)
        return prefix + digest.prefix(10).map { String(format: "%02x", $0) }.joined()
    }
}
