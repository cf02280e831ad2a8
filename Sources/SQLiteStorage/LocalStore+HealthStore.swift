import HealthCore
import HealthModel

/// The SQLite file is one engine of the storage seam.
extension LocalStore: HealthStore {
    public var location: String { path }
}
