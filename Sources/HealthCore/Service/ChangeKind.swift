import Foundation
import HealthModel

/// What a write changed, as a change event names it, so a dashboard reloads only a screen that shows it (a
/// meal does not reload Weights). A write whose kinds are not known (an import, an undo, a write by another
/// process on the same store) names none, and every screen reloads.
public enum ChangeKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case weights, energy, hrv, devices, profile

    public static func < (a: ChangeKind, b: ChangeKind) -> Bool { a.rawValue < b.rawValue }

    /// What a reading with these fields changes: by the built-in device types whose manifests have them
    /// (a scale's fields are weights, a food log's and an activity tracker's energy, an HRV meter's HRV).
    /// Nil when a field is none of theirs: then it is not known.
    public static func of(fields: some Sequence<String>) -> Set<ChangeKind>? {
        var kinds: Set<ChangeKind> = []
        for field in fields {
            guard let kind = byField[field] else { return nil }
            kinds.formUnion(kind)
        }
        return kinds
    }

    private static let byField: [String: Set<ChangeKind>] = {
        var result: [String: Set<ChangeKind>] = [:]
        for type in BuiltInDeviceType.allCases {
            let kind: ChangeKind = switch type {
            case .withings, .scale: .weights
            case .calorieTracker, .activityTracker: .energy
            case .hrvMeter: .hrv
            }
            for field in type.manifest.fields { result[field.name, default: []].insert(kind) }
        }
        return result
    }()
}
