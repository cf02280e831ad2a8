import Foundation

/// What a write changed, as a change event names it, so a dashboard reloads only a screen that shows it (a
/// meal does not reload Weights). A write whose kinds are not known (an import, an undo, a write by another
/// process on the same store) names none, and every screen reloads.
public enum ChangeKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case weights, energy, hrv, devices, profile

    public static func < (a: ChangeKind, b: ChangeKind) -> Bool { a.rawValue < b.rawValue }

    /// What a reading with these fields changes: each field's kind says (`ReadingKind.changes`); a field no kind
    /// describes changes what the built-in device types whose manifests have it show (a food log's comments are
    /// energy). Nil when a field is none of theirs: then it is not known.
    public static func of(fields: some Sequence<String>) -> Set<ChangeKind>? {
        var kinds: Set<ChangeKind> = []
        for field in fields {
            if let kind = ReadingKind(field: field) {
                kinds.formUnion(kind.changes)
            } else if let shown = byDeviceField[field] {
                kinds.formUnion(shown)
            } else {
                return nil
            }
        }
        return kinds
    }

    /// What a reading on a built-in device type changes: the screen that shows that type's readings.
    static func shown(by type: BuiltInDeviceType) -> ChangeKind {
        switch type {
        case .withings, .scale: .weights
        case .calorieTracker, .activityTracker: .energy
        case .hrvMeter: .hrv
        }
    }

    private static let byDeviceField: [String: Set<ChangeKind>] = {
        var result: [String: Set<ChangeKind>] = [:]
        for type in BuiltInDeviceType.allCases {
            for field in type.manifest.fields { result[field.name, default: []].insert(shown(by: type)) }
        }
        return result
    }()
}
