import Foundation
import HealthCore
import HealthModel

extension LocalHealthService {
    /// The user's reading with this id, or nil when there is none: how a pushed record that names its reading
    /// (Health Connect's, openScale's) tells a new one from one sent again or edited.
    func storedReading(id: String) async throws -> Message? {
        do {
            return try await reading(id: id)
        } catch HealthError.unknownReading {
            return nil
        }
    }
}
