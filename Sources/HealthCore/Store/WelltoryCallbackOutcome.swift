import Foundation
import HealthModel

/// What became of a Welltory callback.
public enum WelltoryCallbackOutcome: Sendable, Equatable {
    /// Stored, on this device.
    case saved(deviceName: String)
    /// A measurement with the same share token was stored before: nothing added.
    case alreadySaved(deviceName: String)
    /// No live link has this secret (wrong, or revoked): nothing stored.
    case unknownLink
}
