import Foundation
import HealthModel

/// What an engine gives the logic written once for both (`…+Statements` files): it runs `StoreStatement`s.
/// The steps (what to read, what to decide, what to write) are the shared code's; the engine only renders
/// each statement in its SQL, binds its values and hands rows back as `StoreRow`s.
public protocol StatementEngine: AnyObject, Sendable {
    /// The rows of one statement, outside any transaction (one statement sees one state on both engines).
    func fetch(_ statement: StoreStatement) async throws -> [StoreRow]
    /// Runs `body` in one read transaction: every statement in it sees the same state.
    func readingStatements<T: Sendable>(_ body: @escaping @Sendable (any StatementSession) throws -> T) async throws -> T
    /// Runs `body` in one write transaction: all its statements are kept, or none (a throw rolls them back).
    func writingStatements<T: Sendable>(_ body: @escaping @Sendable (any StatementSession) throws -> T) async throws -> T
}

/// Statements run inside one of the engine's transactions. Synchronous, as SQLite's transactions are: a
/// PostgreSQL engine runs the body on a thread of its own, off Swift's cooperative pool.
public protocol StatementSession {
    func rows(_ statement: StoreStatement) throws -> [StoreRow]
    /// Runs a statement whose rows nobody reads.
    func run(_ statement: StoreStatement) throws
    /// Adds a device row: the one row the engines key differently (SQLite keeps the id's bytes beside it,
    /// which its readings refer to).
    func insertDevice(_ device: Device) throws
    /// Makes any other transaction that names the same `key` wait here until this one ends (PostgreSQL's
    /// advisory lock; SQLite's one writer already keeps transactions apart).
    func holdLock(named key: String) throws
}

extension StatementSession {
    public func one(_ statement: StoreStatement) throws -> StoreRow? { try rows(statement).first }

    public func exists(_ statement: StoreStatement) throws -> Bool { try one(statement) != nil }

    /// How many rows a write ending in `RETURNING 1` changed.
    public func changes(_ statement: StoreStatement) throws -> Int { try rows(statement).count }
}

extension StatementEngine {
    public func fetchOne(_ statement: StoreStatement) async throws -> StoreRow? { try await fetch(statement).first }
}
