import ArgumentParser
import HealthCore

/// `--columns date=Timestamp,weight=Body Weight,fat=Fat%`: which of a CSV's columns hold what hmon reads.
enum ImportColumnsArgument {
    /// The pairs, each `COLUMN=NAME`; a name is taken as written (without spaces around it) and may hold
    /// anything but a comma. Throws a usage error naming the pair that is wrong.
    static func parse(_ text: String) throws -> [ImportColumn: String] {
        var columns: [ImportColumn: String] = [:]
        let known = ImportColumn.allCases.map(\.rawValue).joined(separator: ", ")
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard parts.count == 2, let column = ImportColumn(rawValue: key) else {
                throw ValidationError("--columns: \"\(pair)\" is not COLUMN=NAME with COLUMN one of \(known) (like --columns date=Timestamp,weight=\"Body Weight\")")
            }
            let name = parts[1].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw ValidationError("--columns: \(key)= names no column: write \(key)=NAME") }
            guard columns[column] == nil else { throw ValidationError("--columns names the \(key) column twice") }
            columns[column] = name
        }
        return columns
    }
}
