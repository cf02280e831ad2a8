import Foundation

/// The two engines behind `HealthStore`. The store suites run each test on both: `StoreEngine.available`
/// is SQLite, and PostgreSQL when `TestPostgres` has a server (else `PostgresHalfTests` shows the
/// skip and its reason).
public enum StoreEngine: String, Sendable, CustomStringConvertible {
    case sqlite, postgres

    public static var available: [StoreEngine] { TestPostgres.isAvailable ? [.sqlite, .postgres] : [.sqlite] }

    public var description: String { rawValue }
}
