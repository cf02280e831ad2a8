import Foundation

/// What a write changed, as a change event names it, so a dashboard reloads only a screen that shows it (a
/// meal does not reload Weights). A write whose kinds are not known names none, and every screen reloads: on
/// SQLite an import, an undo, a write by another process on the same store; on PostgreSQL, whose triggers name
/// the kinds of every write from its rows, only a reading with a field no kind or built-in type describes.
public enum ChangeKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case weights, energy, hrv, devices, profile

    public static func < (a: ChangeKind, b: ChangeKind) -> Bool { a.rawValue < b.rawValue }

    /// What a reading with these fields changes: each field's kind says (`ReadingKind.changes`); a field no kind
    /// describes changes what the built-in device types whose manifests have it show (a food log's comments are
    /// energy). Nil when a field is none of theirs: then it is not known.
    public static func of(fields: some Sequence<String>) -> Set<ChangeKind>? {
        var kinds: Set<ChangeKind> = []
        for field in fields {
            guard let changed = byField[field] else { return nil }
            kinds.formUnion(changed)
        }
        return kinds
    }

    /// Every field whose change is known, with what a reading carrying it changes (`of(fields:)` reads it):
    /// the field's kind says, or for a field no kind describes, the built-in device types whose manifests
    /// have it. PostgreSQL's triggers read a copy of it (`field_change_kinds`), so the kinds a write there
    /// announces follow this table whoever writes.
    public static let byField: [String: Set<ChangeKind>] = {
        var result = byDeviceField
        for kind in ReadingKind.allCases {
            if let first = ReadingKind(field: kind.field) { result[kind.field] = first.changes }
        }
        return result
    }()

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
