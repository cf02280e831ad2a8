import Foundation

/// One SQL statement written once for both engines: its text, the values it binds (never spliced into
/// the text), and the few places where the engines spell SQL differently, each rendered by the engine.
///
///     let statement: StoreStatement = "SELECT * FROM devices WHERE uid = \(userID) AND \(caselessColumn: "name") = \(caseless: name)"
public struct StoreStatement: Sendable, ExpressibleByStringInterpolation {
    public enum Piece: Sendable {
        case sql(String)
        case value(StoreValue)
        /// A text column compared with ASCII letters folded, as SQLite's `NOCASE` compares.
        case caselessColumn(String)
        /// A text compared with a `caselessColumn`: PostgreSQL binds it folded, SQLite as it is.
        case caselessValue(String)
        /// `IN (…)` on SQLite, `= ANY(…)` of one array on PostgreSQL: a test against a list of ids kept as bytes.
        case inBinaryIDs([String])
        /// SQL the engines spell differently, each rendered by the engine.
        case fragment(Fragment)
    }

    public var pieces: [Piece]

    public init(stringLiteral value: String) { pieces = [.sql(value)] }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) { pieces.reserveCapacity(interpolationCount * 2 + 1) }

        public mutating func appendLiteral(_ literal: String) { if !literal.isEmpty { pieces.append(.sql(literal)) } }
        public mutating func appendInterpolation(_ value: String) { pieces.append(.value(.text(value))) }
        public mutating func appendInterpolation(_ value: String?) { pieces.append(.value(value.map(StoreValue.text) ?? .null)) }
        public mutating func appendInterpolation(_ value: Int64) { pieces.append(.value(.integer(value))) }
        public mutating func appendInterpolation(_ value: Int64?) { pieces.append(.value(value.map(StoreValue.integer) ?? .null)) }
        public mutating func appendInterpolation(_ value: Int) { pieces.append(.value(.integer(Int64(value)))) }
        public mutating func appendInterpolation(_ value: Int?) { pieces.append(.value(value.map { .integer(Int64($0)) } ?? .null)) }
        public mutating func appendInterpolation(_ value: Double) { pieces.append(.value(.real(value))) }
        public mutating func appendInterpolation(_ value: Double?) { pieces.append(.value(value.map(StoreValue.real) ?? .null)) }
        public mutating func appendInterpolation(_ value: Bool) { pieces.append(.value(.flag(value))) }
        public mutating func appendInterpolation(binaryID value: String) { pieces.append(.value(.binaryID(value))) }
        public mutating func appendInterpolation(bytes value: Data) { pieces.append(.value(.bytes(value))) }
        /// Follows a column: `mid \(isAnyOf: mids)`.
        public mutating func appendInterpolation(isAnyOf ids: [String]) { pieces.append(.inBinaryIDs(ids)) }
        public mutating func appendInterpolation(caselessColumn column: String) { pieces.append(.caselessColumn(column)) }
        public mutating func appendInterpolation(caseless value: String) { pieces.append(.caselessValue(value)) }
        public mutating func appendInterpolation(_ fragment: StoreStatement.Fragment) { pieces.append(.fragment(fragment)) }
        /// SQL text written by hmon itself (a column or table name from a fixed list), never a value.
        public mutating func appendInterpolation(unescaped sql: String) { pieces.append(.sql(sql)) }
    }

    /// The pieces the engines spell differently, interpolated by name: `\(.lockingReadRows)`.
    public enum Fragment: Sendable {
        /// `FOR UPDATE` where the engine locks rows it read for a later write in the same transaction
        /// (PostgreSQL; SQLite's one writer already holds the whole store).
        case lockingReadRows
        /// `COLLATE "C"` after a text PostgreSQL would otherwise order by its locale: both engines then order
        /// by bytes, as SQLite's `BINARY` does.
        case bytewiseOrder
        /// The column that orders a table's rows as they were added: SQLite's `rowid`, PostgreSQL's `seq`.
        case insertionOrder
        /// `FOR KEY SHARE` after a read whose rows must not be deleted before the transaction ends (the lock a
        /// foreign key's check takes; SQLite's one writer already holds the whole store).
        case keptFromDeletion
    }

    /// ASCII letters folded to lower case, as SQLite's `NOCASE` folds them (and nothing else).
    public static func asciiLowered(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0
        }))
    }
}
