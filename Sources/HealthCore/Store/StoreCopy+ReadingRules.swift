import Foundation
import HealthModel

extension StoreCopy {
    /// Every reading a copy would write meets the rules every other way in applies: a
    /// number within its field's range (`ReadingRules.check(field:value:)`), text without control or format
    /// characters (`TextRules`, which PostgreSQL's refusal of NUL made one rule for both engines). A store
    /// written by an older hmon, or edited by hand, may hold one that does not; copying it would carry it
    /// into a store that promises otherwise. It is found before the target is touched, and named with how
    /// to mend it at the source, so nothing is half-copied.
    package static func checkReadings(of source: any StoreRowCopying, tables: [Table]) async throws {
        guard let table = tables.first(where: { $0.name == "messages" }),
              let idColumn = table.columns.firstIndex(of: "mid"),
              let dataColumn = table.columns.firstIndex(of: "data")
        else { return }
        var after: Value?
        repeat {
            let page = try await source.rows(of: table, after: after, limit: pageSize)
            for row in page.rows {
                guard case .text(let json) = row[dataColumn] else { continue }
                let id = switch row[idColumn] {
                case .bytes(let bytes): BinaryID.decode(bytes)
                case .text(let text): text
                default: "\(row[idColumn])"
                }
                if let problem = problem(inStoredData: json) {
                    throw HealthError.invalidValue(
                        "the reading \(id) in \(source.location) holds \(problem): correct it with `hmon reading edit \(id)` or "
                            + "delete it with `hmon reading delete \(id)` on that store, then copy again; nothing was copied")
                }
            }
            after = page.rows.isEmpty ? nil : page.last
        } while after != nil
    }

    /// What is wrong with a reading's stored JSON, or nil when it meets the rules.
    static func problem(inStoredData json: String) -> String? {
        guard let data = try? JSONDecoder().decode([String: FieldValue].self, from: Data(json.utf8)) else {
            return "data that is not a JSON object of numbers and text"
        }
        for (field, value) in data.sorted(by: { $0.key < $1.key }) {
            do {
                switch value {
                case .number(let number):
                    guard number.isFinite else { return "\(field) that is not a finite number" }
                    try ReadingRules.check(field: field, value: number)
                case .text(let text):
                    try TextRules.check(text, as: field)
                }
            } catch HealthError.invalidValue(let why) {
                return why
            } catch {
                return "\(field): \(error)"
            }
        }
        return nil
    }
}
