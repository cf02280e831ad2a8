import Foundation
import HealthModel

/// One row as both engines hand it to shared code: each column's value by name. Reading a column that is
/// missing or holds another type throws (a store edited by hand must not stop hmon), never traps.
public struct StoreRow: Sendable {
    public let values: [String: StoreValue]

    public init(_ values: [String: StoreValue]) { self.values = values }

    public func optionalText(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: nil
        case .text(let text), .binaryID(let text): text
        default: throw unexpected(column, "a text")
        }
    }

    public func text(_ column: String) throws -> String {
        guard let text = try optionalText(column) else { throw unexpected(column, "a text") }
        return text
    }

    public func optionalInteger(_ column: String) throws -> Int64? {
        switch try value(column) {
        case .null: nil
        case .integer(let number): number
        case .flag(let flag): flag ? 1 : 0
        default: throw unexpected(column, "an integer")
        }
    }

    public func integer(_ column: String) throws -> Int64 {
        guard let number = try optionalInteger(column) else { throw unexpected(column, "an integer") }
        return number
    }

    public func optionalReal(_ column: String) throws -> Double? {
        switch try value(column) {
        case .null: nil
        case .real(let number): number
        case .integer(let number): Double(number)
        default: throw unexpected(column, "a number")
        }
    }

    public func real(_ column: String) throws -> Double {
        guard let number = try optionalReal(column) else { throw unexpected(column, "a number") }
        return number
    }

    public func flag(_ column: String) throws -> Bool {
        switch try value(column) {
        case .flag(let flag): flag
        case .integer(let number): number != 0
        default: throw unexpected(column, "a true or false")
        }
    }

    public func date(_ column: String) throws -> Date { Date(millisecondsSince1970: try integer(column)) }

    public func optionalDate(_ column: String) throws -> Date? { try optionalInteger(column).map(Date.init(millisecondsSince1970:)) }

    private func value(_ column: String) throws -> StoreValue {
        guard let value = values[column] else {
            throw HealthError.storeUnavailable("the store has no column \(column) where hmon reads one: is it a newer store?")
        }
        return value
    }

    private func unexpected(_ column: String, _ wanted: String) -> HealthError {
        .storeUnavailable("the store's column \(column) holds something other than \(wanted): was it edited by hand?")
    }
}
