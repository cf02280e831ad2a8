import Foundation
import CheckedNumbers

/// A value in a message's data: SAMI messages carry numbers and strings.
public enum FieldValue: Codable, Sendable, Equatable, Hashable {
    case number(Double)
    case text(String)

    public var number: Double? { if case .number(let n) = self { n } else { nil } }
    public var textValue: String? { if case .text(let s) = self { s } else { nil } }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .text(s)
        } else {
            // true, null, an object or an array: say what a field takes, not only one of the two.
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "must be a number or a string")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): try c.encode(n)
        case .text(let s): try c.encode(s)
        }
    }
}

/// A normalized message: one reading of one device at one instant (SAMI's `NormalizedMessage`).
public struct Message: Codable, Sendable, Equatable, Identifiable {
    public var mid: String
    /// Source device id.
    public var sdid: String
    /// Source device type id.
    public var sdtid: String
    public var uid: String
    /// When the reading was taken, ms since the epoch.
    public var ts: Int64
    /// When the platform received it, ms since the epoch.
    public var cts: Int64
    public var mv: Int
    public var data: [String: FieldValue]

    public var id: String { mid }
    public var date: Date { Date(millisecondsSince1970: ts) }

    public init(mid: String, sdid: String, sdtid: String, uid: String, ts: Int64, cts: Int64, mv: Int = 1,
                data: [String: FieldValue]) {
        self.mid = mid
        self.sdid = sdid
        self.sdtid = sdtid
        self.uid = uid
        self.ts = ts
        self.cts = cts
        self.mv = mv
        self.data = data
    }
}

/// A reading to add: which device, when (nil = now) and what.
public struct NewMessage: Sendable, Equatable {
    public var sdid: String
    public var ts: Int64?
    public var data: [String: FieldValue]

    public init(sdid: String, ts: Int64? = nil, data: [String: FieldValue]) {
        self.sdid = sdid
        self.ts = ts
        self.data = data
    }
}

public enum SortOrder: String, Codable, Sendable { case asc, desc }

/// A range query over one device's messages, or over all of the user's devices (`GET /messages`).
public struct MessageQuery: Sendable, Equatable {
    /// The device; nil asks for the readings of every device of the user (SAMI's `uid` + dates).
    public var sdid: String?
    /// Inclusive bounds, ms since the epoch.
    public var startDate: Int64
    public var endDate: Int64
    public var order: SortOrder
    public var count: Int
    /// The `next` cursor of the previous page, nil for the first page.
    public var offset: String?
    public var fieldPresence: String?

    public init(sdid: String?, startDate: Int64, endDate: Int64, order: SortOrder = .desc, count: Int = 100,
                offset: String? = nil, fieldPresence: String? = nil) {
        self.sdid = sdid
        self.startDate = startDate
        self.endDate = endDate
        self.order = order
        self.count = count
        self.offset = offset
        self.fieldPresence = fieldPresence
    }
}

/// One page of a range query; `next` is nil on the last page.
public struct MessagePage: Sendable, Equatable {
    public var messages: [Message]
    public var next: String?

    public init(messages: [Message], next: String?) {
        self.messages = messages
        self.next = next
    }
}

extension Date {
    public init(millisecondsSince1970 ms: Int64) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
    public var millisecondsSince1970: Int64 { Int64(rounding: timeIntervalSince1970 * 1000) }
}

extension Message {
    /// Newest first; readings of the same instant in id order, so a list is the same on every load.
    public static func newestFirst(_ a: Message, _ b: Message) -> Bool { a.ts != b.ts ? a.ts > b.ts : a.mid < b.mid }
}
