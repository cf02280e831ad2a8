import Foundation
import HealthModel

extension HealthService {
    /// The ids among `ids` that name one of the user's devices, in their order: a screen asked for a device
    /// deleted a moment ago (on another dashboard) shows what is left instead of failing.
    func ownDevices(_ ids: [String]) async throws -> [String] {
        guard !ids.isEmpty else { return [] }
        let own = Set(try await devices().map(\.id))
        return ids.filter(own.contains)
    }
}
