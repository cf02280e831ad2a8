// Imports nothing: a table's description is plain data, rendered to each engine's SQL here.

/// A table described once for both engines, for the tables migrations create from now on: its columns in a
/// neutral type, its key and its indexes, rendered to SQLite's and PostgreSQL's `CREATE` statements (`sqlite`,
/// `postgres`), so the two engines' next migrations cannot drift apart. The shipped tables keep their frozen
/// per-engine SQL (see `Schema`); `TableDescriptionTests` renders descriptions of shipped tables and checks
/// each engine's result against the table its migrations made.
package struct TableDescription: Sendable, Equatable {
    /// A column's values, as each engine keeps them: 64-bit integers and 8-byte doubles on both.
    package enum ColumnType: Sendable, Equatable {
        case text, integer, real, bytes

        var sqlite: String {
            switch self {
            case .text: "TEXT"
            case .integer: "INTEGER"
            case .real: "REAL"
            case .bytes: "BLOB"
            }
        }

        var postgres: String {
            switch self {
            case .text: "text"
            case .integer: "bigint"
            case .real: "double precision"
            case .bytes: "bytea"
            }
        }
    }

    package struct Column: Sendable, Equatable {
        package var name: String
        package var type: ColumnType
        package var notNull: Bool
        /// An SQL literal both engines read alike (`''`, `0`), or nil for none.
        package var defaultValue: String?
        /// `table(column)` the column refers to, its rows deleted with the row it names.
        package var cascadesFrom: String?

        package init(_ name: String, _ type: ColumnType, notNull: Bool = true, defaultValue: String? = nil, cascadesFrom: String? = nil) {
            self.name = name
            self.type = type
            self.notNull = notNull
            self.defaultValue = defaultValue
            self.cascadesFrom = cascadesFrom
        }
    }

    package struct Index: Sendable, Equatable {
        package var name: String
        package var columns: [String]
        package var unique: Bool

        package init(_ name: String, _ columns: [String], unique: Bool = false) {
            self.name = name
            self.columns = columns
            self.unique = unique
        }
    }

    package var name: String
    package var columns: [Column]
    package var primaryKey: [String]
    /// Kept in its key's order on SQLite (`WITHOUT ROWID`): a table only ever read by its key. PostgreSQL has
    /// no such table; its primary key's index serves alike.
    package var clusteredByKey: Bool
    package var indexes: [Index]

    package init(_ name: String, columns: [Column], primaryKey: [String], clusteredByKey: Bool = false, indexes: [Index] = []) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.clusteredByKey = clusteredByKey
        self.indexes = indexes
    }

    /// The statements that create the table and its indexes on SQLite.
    package var sqlite: [String] {
        let lines = columns.map { column in
            line(column, type: column.type.sqlite)
        } + ["PRIMARY KEY (\(primaryKey.joined(separator: ", ")))"]
        let table = "CREATE TABLE \(name) (\n    \(lines.joined(separator: ",\n    "))\n)\(clusteredByKey ? " WITHOUT ROWID" : "")"
        return [table] + indexes.map { index in
            "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(index.name) ON \(name)(\(index.columns.joined(separator: ", ")))"
        }
    }

    /// The statements that create the table and its indexes on PostgreSQL.
    package var postgres: [String] {
        let lines = columns.map { column in
            line(column, type: column.type.postgres)
        } + ["PRIMARY KEY (\(primaryKey.joined(separator: ", ")))"]
        let table = "CREATE TABLE \(name) (\n    \(lines.joined(separator: ",\n    "))\n)"
        return [table] + indexes.map { index in
            "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(index.name) ON \(name) (\(index.columns.joined(separator: ", ")))"
        }
    }

    private func line(_ column: Column, type: String) -> String {
        var line = "\(column.name) \(type)"
        if column.notNull { line += " NOT NULL" }
        if let value = column.defaultValue { line += " DEFAULT \(value)" }
        if let target = column.cascadesFrom { line += " REFERENCES \(target) ON DELETE CASCADE" }
        return line
    }
}
