import Foundation
import CSQLiteSettings

/// An SQLite file another program wrote (Gadgetbridge's exported database), opened to read and nothing else.
///
/// Through SQLite's own C interface rather than GRDB: the file formats stay free of the store's engine (the
/// server links them too), and reading a few tables needs no more than a statement and its rows. Opened as
/// `immutable`: SQLite takes no lock and writes nothing beside the file (no journal, no `-wal` or `-shm`), so
/// the person's export is left exactly as it was.
final class SQLiteFile {
    private var handle: OpaquePointer?
    /// The file's name as the person gave it, for messages.
    let name: String

    init(_ url: URL, name: String) throws {
        self.name = name
        let path = url.standardizedFileURL.path
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        var opened: OpaquePointer?
        let status = sqlite3_open_v2("file:\(escaped)?immutable=1", &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(opened)
            throw ImportError(file: name, problem: "cannot open the database: \(message)")
        }
        handle = opened
    }

    deinit { sqlite3_close(handle) }

    /// One row of a statement, its columns by position.
    struct Row {
        fileprivate let statement: OpaquePointer

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        /// The column as an integer; nil when it is NULL.
        func int(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(statement, column) }
        /// The column as a number; nil when it is NULL.
        func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(statement, column) }
        /// The column as text; nil when it is NULL.
        func text(_ column: Int32) -> String? {
            guard !isNull(column), let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: bytes)
        }
    }

    /// Runs `sql` and hands each row to `body`.
    func rows(_ sql: String, _ body: (Row) throws -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            let problem = failure()
            sqlite3_finalize(statement)
            throw problem
        }
        defer { sqlite3_finalize(statement) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw failure() }
            try body(Row(statement: statement))
        }
    }

    /// The names of the tables, SQLite's own left out.
    func tableNames() throws -> [String] {
        var names: [String] = []
        try rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name") { row in
            if let name = row.text(0) { names.append(name) }
        }
        return names
    }

    /// The names of a table's columns.
    func columns(of table: String) throws -> Set<String> {
        var names: Set<String> = []
        try rows("PRAGMA table_info(\(Self.quoted(table)))") { row in
            if let name = row.text(1) { names.insert(name) }
        }
        return names
    }

    /// How many rows a table holds.
    func rowCount(of table: String) throws -> Int {
        var count: Int64 = 0
        try rows("SELECT count(*) FROM \(Self.quoted(table))") { count = $0.int(0) ?? 0 }
        return Int(clamping: count)
    }

    /// A name as an SQL identifier: in double quotes, a quote in it doubled.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// What SQLite says went wrong, as an import's message: a damaged file, or one that is not a database.
    private func failure() -> ImportError {
        let code = sqlite3_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        if code == SQLITE_NOTADB || code == SQLITE_CORRUPT {
            return ImportError(file: name, problem: "the database is damaged or not an SQLite database (\(message)): export it from Gadgetbridge again")
        }
        return ImportError(file: name, problem: "cannot read the database: \(message)")
    }
}
