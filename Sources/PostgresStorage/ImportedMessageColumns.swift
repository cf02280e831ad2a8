import Foundation
import PostgresNIO
import HealthCore
import HealthFormats

/// A batch of readings an import inserts, as one array per column: both imports (Apple Health's and hmon's
/// own export) send it to PostgreSQL as one `unnest` insert, not one round trip per reading.
struct ImportedMessageColumns: Sendable {
    /// The ids as `ByteaID`s: bound as `bytea[]`, their bytes made on the import's writer as SQLite's are.
    private var mids: [ByteaID] = [], sdids: [ByteaID] = [], sdtids: [ByteaID] = []
    private var ts: [Int64] = [], mvs: [Int64] = [], data: [String] = []
    /// `ReadingNumbers` as four arrays, NaN for none: postgres-nio's arrays cannot hold a NULL, and no
    /// reading's number is NaN (`ReadingRules` refuses it), so NULLIF turns it back.
    private var numbers = [[Double]](repeating: [], count: 4)
    /// The span totals among them (`ImportedReading.isSpanTotal`), by position, with what marks their kind.
    private var spanTotals: [(index: Int, mark: SpanTotalMark)] = []

    /// The way the readings came (`ReadingPath`), the same for the whole batch.
    var via: String?

    var isEmpty: Bool { mids.isEmpty }

    mutating func append(mid: String, sdid: String, sdtid: String, manifestVersion: Int, ts: Int64, json: String,
                         numbers readingNumbers: ReadingNumbers, spanTotalMark: SpanTotalMark? = nil) {
        if let spanTotalMark { spanTotals.append((mids.count, spanTotalMark)) }
        mids.append(ByteaID(mid))
        sdids.append(ByteaID(sdid))
        sdtids.append(ByteaID(sdtid))
        self.ts.append(ts)
        mvs.append(Int64(manifestVersion))
        data.append(json)
        for (column, value) in readingNumbers.values.enumerated() { numbers[column].append(value ?? .nan) }
    }

    /// Inserts the readings whose ids are not stored yet; the ids it added.
    func insertUnlessStored(userID: String, received: Int64, in db: PGConnection) async throws -> Set<String> {
        guard !mids.isEmpty else { return [] }
        try await replaceSpanTotals(userID: userID, in: db)
        let uids = [ByteaID](repeating: ByteaID(userID), count: mids.count)
        let cts = [Int64](repeating: received, count: mids.count)
        let inserted = try await db.all("""
            INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data, \(unescaped: ReadingNumbers.columns), via)
            SELECT mid, sdid, sdtid, uid, ts, cts, mv, data, NULLIF(w, 'NaN'), NULLIF(a, 'NaN'), NULLIF(c, 'NaN'), NULLIF(b, 'NaN'),
                   \(via)::text
            FROM unnest(\(mids)::bytea[], \(sdids)::bytea[], \(sdtids)::bytea[], \(uids)::bytea[], \(ts)::int8[],
                        \(cts)::int8[], \(mvs)::int8[], \(data)::text[], \(numbers[0])::float8[], \(numbers[1])::float8[],
                        \(numbers[2])::float8[], \(numbers[3])::float8[])
                AS reading(mid, sdid, sdtid, uid, ts, cts, mv, data, w, a, c, b)
            ON CONFLICT (mid) DO NOTHING RETURNING mid
            """)
        var fresh = Set<String>()
        for row in inserted { fresh.insert(try row.value("mid", ByteaID.self).id) }
        return fresh
    }

    /// Deletes the totals the devices hold for the span totals' spans, unless one is that very reading (same id and
    /// data), so the insert replaces a figure from an earlier download instead of adding to it; as on SQLite
    /// (`ImportWriter`). Readings stored before span totals had span ids are found by their column, not their id.
    /// A day's version moves with the delete (the `messages_days_removed` trigger).
    private func replaceSpanTotals(userID: String, in db: PGConnection) async throws {
        for (mark, group) in Dictionary(grouping: spanTotals, by: \.mark) {
            let indexes = group.map(\.index)
            let mids = indexes.map { self.mids[$0] }, sdids = indexes.map { self.sdids[$0] }
            let ts = indexes.map { self.ts[$0] }, data = indexes.map { self.data[$0] }
            switch mark {
            case .column(let column):
                // Named in the statement, so only one of `ReadingNumbers`' own.
                guard ReadingNumbers.columnOfField.values.contains(column) else { continue }
                try await db.run("""
                    DELETE FROM messages m USING unnest(\(mids)::bytea[], \(sdids)::bytea[], \(ts)::int8[], \(data)::text[])
                        AS span(mid, sdid, ts, data)
                    WHERE m.uid = \(ByteaID(userID)) AND m.sdid = span.sdid AND m.ts = span.ts AND m.\(unescaped: column) IS NOT NULL
                        AND NOT (m.mid = span.mid AND m.data = span.data)
                    """)
            case .field(let field):
                try await db.run("""
                    DELETE FROM messages m USING unnest(\(mids)::bytea[], \(sdids)::bytea[], \(ts)::int8[], \(data)::text[])
                        AS span(mid, sdid, ts, data)
                    WHERE m.uid = \(ByteaID(userID)) AND m.sdid = span.sdid AND m.ts = span.ts AND m.data::jsonb ? \(field)
                        AND NOT (m.mid = span.mid AND m.data = span.data)
                    """)
            }
        }
    }
}
