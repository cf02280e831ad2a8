import Foundation

/// A correction to a stored reading: a new time, new values for some of its fields, or both. Fields not
/// named keep their values; the result is checked by the same `ReadingRules` a new reading goes through.
public struct ReadingChange: Sendable, Equatable, Codable {
    /// When the reading was taken, ms since the epoch; nil keeps the time.
    public var ts: Int64?
    /// The fields to set (`["weight": 72.4]`); empty keeps the values.
    public var data: [String: FieldValue]

    public init(ts: Int64? = nil, data: [String: FieldValue] = [:]) {
        self.ts = ts
        self.data = data
    }

    private enum CodingKeys: String, CodingKey { case ts, data }

    /// Both keys may be left out (`{"ts": …}` moves a reading, `{"data": {…}}` corrects its values).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ts = try container.decodeIfPresent(Int64.self, forKey: .ts)
        data = try container.decodeIfPresent([String: FieldValue].self, forKey: .data) ?? [:]
    }

    /// Whether the change changes nothing (refused: a person meant to change something).
    public var isEmpty: Bool { ts == nil && data.isEmpty }
}

/// Which of the user's readings to list, over all their devices: `hmon reading list`, `hmon export`.
public struct ReadingsQuery: Sendable, Equatable {
    /// `from <= ts < to`, ms since the epoch.
    public var from: Int64
    public var to: Int64
    /// Only readings carrying this field, when given.
    public var field: String?
    public var order: SortOrder
    /// At most this many; nil for all.
    public var limit: Int?

    public init(from: Int64 = 0, to: Int64 = .max, field: String? = nil, order: SortOrder = .desc, limit: Int? = nil) {
        self.from = from
        self.to = to
        self.field = field
        self.order = order
        self.limit = limit
    }
}
