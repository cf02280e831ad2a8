import Foundation
import HealthModel

/// What opening a store may do to its file.
public enum StoreAccess: Sendable, Equatable {
    /// Read only: never create, migrate or write (commands that only show data).
    case readOnly
    /// Read and write an existing store, bringing its schema up to date (commands that add data).
    case readWrite
    /// Like `.readWrite`, and make a new store (and its folder) when there is none (`user add`, `demo`,
    /// the dashboard's first run, `serve`).
    case create
}
