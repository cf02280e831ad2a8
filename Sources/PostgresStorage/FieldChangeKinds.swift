import Foundation
import PostgresNIO
import HealthModel

/// The database's copy of `ChangeKind.byField`, which the triggers that announce writes read to tell a
/// reading's kinds from its fields (schema version 30). Written from Swift's kinds table each time a store
/// opens for writing, not frozen in a migration, so a kind added later needs no migration of its own; a
/// field this hmon does not know is dropped, and a reading carrying it is announced as changing anything.
enum FieldChangeKinds {
    /// Brings the table to this hmon's kinds; writes nothing when it already holds them.
    static func fill(in db: PGConnection) async throws {
        let table = ChangeKind.byField.sorted { $0.key < $1.key }
        let fields = table.map(\.key)
        let kinds = table.map { $0.value.map(\.rawValue).sorted().joined(separator: ",") }
        try await db.run("""
            WITH wanted AS (
                SELECT w.field, string_to_array(w.kinds, ',') AS kinds FROM unnest(\(fields)::text[], \(kinds)::text[]) AS w(field, kinds)
            ), dropped AS (
                DELETE FROM field_change_kinds WHERE field <> ALL(\(fields)::text[])
            )
            INSERT INTO field_change_kinds (field, kinds) SELECT field, kinds FROM wanted
            ON CONFLICT (field) DO UPDATE SET kinds = EXCLUDED.kinds WHERE field_change_kinds.kinds IS DISTINCT FROM EXCLUDED.kinds
            """)
    }
}
