import Foundation
import GRDB
import HealthCore

/// An id as the `messages` table and the `key` columns of `users` and `devices` keep it: `BinaryID`'s
/// bytes, bound and read back as the id's text. Every statement that compares or writes those columns
/// binds a `StoredID`; a plain `String` there would match nothing.
struct StoredID: DatabaseValueConvertible, Hashable {
    var id: String

    init(_ id: String) { self.id = id }

    var databaseValue: DatabaseValue { Data(BinaryID.encode(id)).databaseValue }

    /// Text is read as it is, so a column the migration has not reached (or a hand-made row) still reads.
    static func fromDatabaseValue(_ value: DatabaseValue) -> StoredID? {
        switch value.storage {
        case .blob(let bytes): StoredID(BinaryID.decode(bytes))
        case .string(let text): StoredID(text)
        default: nil
        }
    }

    /// `hmon_binary_id(text)`: the stored bytes of an id, for the migration that moved ids to bytes.
    static let sqlFunction = DatabaseFunction("hmon_binary_id", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
        return Data(BinaryID.encode(text))
    }
}

extension Row {
    /// The id kept in `column` as `StoredID` bytes, as text.
    func storedID(_ column: String) -> String { (self[column] as StoredID).id }
}
