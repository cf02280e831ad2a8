import Foundation
import HealthModel

/// A service whose server reads linked sources (an account at a pulled source: `hmon link add KIND`) and can be
/// asked to read them now: what R on the dashboard does besides reloading the screen. A local store has
/// nothing to ask (the polling runs in `hmon serve`), so only the remote service conforms.
public protocol LinkedSourcePolling: Sendable {
    /// Reads the signed-in user's linked sources now; returns how many readings were added.
    func pollLinkedSources() async throws -> Int
}
