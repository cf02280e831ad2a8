import Foundation

/// A value a statement binds or a row holds, in terms both engines share: each engine maps these to its
/// own types (a reading's id is bytes on both, `StoredID` on SQLite and `ByteaID` on PostgreSQL; a flag is
/// an integer on SQLite and a boolean on PostgreSQL).
public enum StoreValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case flag(Bool)
    /// An id kept as `BinaryID` bytes (the readings' `mid`, `sdid`, `sdtid`, `uid`), read back as its text.
    case binaryID(String)
    /// Raw bytes to compare such ids with (a range of ids by their first bytes); rows never hold these:
    /// a column of bytes reads back as a `binaryID`.
    case bytes(Data)
}
