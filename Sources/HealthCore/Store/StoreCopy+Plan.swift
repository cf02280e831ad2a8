import Foundation
import HealthModel

extension StoreCopy {
    /// A store's tables as its live catalog describes them (SQLite's `sqlite_master` and pragmas,
    /// PostgreSQL's `information_schema` and `pg_constraint`).
    package struct Catalog: Sendable {
        /// Each table's columns a copy writes, in their order: not those the engine fills in itself
        /// (PostgreSQL's serial `seq`, generated columns).
        package var columns: [String: [String]]
        /// The tables each table's foreign keys refer to.
        package var parents: [String: Set<String>]

        package init(columns: [String: [String]], parents: [String: Set<String>]) {
            self.columns = columns
            self.parents = parents
        }
    }

    /// The tables to copy and their columns, from the source's catalog, in an order both catalogs' foreign
    /// keys accept. A table or column the target lacks is refused before anything is written: copying
    /// without it would drop its values without a word.
    package static func plan(from source: Catalog, source sourceName: String, to target: Catalog, target targetName: String) throws -> [Table] {
        let names = Set(source.columns.keys).subtracting(notCopied.keys)
        var tables: [String: Table] = [:]
        for name in names {
            guard let targetColumns = target.columns[name] else {
                throw HealthError.invalidValue("\(targetName) has no table \(name), which \(sourceName) holds: "
                                               + "make it there too (stores this hmon made have the same tables); nothing was copied")
            }
            let columns = source.columns[name] ?? []
            let missing = columns.filter { !targetColumns.contains($0) }
            if !missing.isEmpty {
                throw HealthError.invalidValue("\(targetName) has no column \(missing.map { "\(name).\($0)" }.joined(separator: ", ")), "
                                               + "which \(sourceName) holds: add it there too (stores this hmon made have the same columns); "
                                               + "nothing was copied")
            }
            tables[name] = Table(name: name, columns: columns)
        }
        return try ordered(names, parents: merged(source.parents, target.parents)).compactMap { tables[$0] }
    }

    /// The target's tables `--force` empties, children first: those the copy fills, and those it leaves
    /// out but whose rows would refer to what it replaces. No other table is touched.
    package static func cleared(on target: Catalog, along source: Catalog) throws -> [String] {
        let names = Set(target.columns.keys).filter { notCopied[$0]?.cleared ?? (source.columns[$0] != nil) }
        return try ordered(names, parents: merged(target.parents, source.parents)).reversed()
    }

    private static func merged(_ one: [String: Set<String>], _ other: [String: Set<String>]) -> [String: Set<String>] {
        one.merging(other) { $0.union($1) }
    }

    /// `names` with every table after the tables it refers to (ties by name, so a copy is repeatable).
    static func ordered(_ names: Set<String>, parents: [String: Set<String>]) throws -> [String] {
        var order: [String] = []
        var placed: Set<String> = []
        var left = names
        while !left.isEmpty {
            let ready = left.filter { name in (parents[name] ?? []).subtracting([name]).allSatisfy { placed.contains($0) || !names.contains($0) } }
            guard !ready.isEmpty else {
                throw HealthError.invalidValue("the tables \(left.sorted().joined(separator: ", ")) refer to each other: no order copies them")
            }
            for name in ready.sorted() {
                order.append(name)
                placed.insert(name)
            }
            left.subtract(ready)
        }
        return order
    }
}

extension StoreCopy {
    /// A table's or column's name as both engines' SQL takes it, whatever it is called.
    package static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
