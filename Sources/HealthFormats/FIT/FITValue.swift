/// A field's value as the file holds it, before the profile's scale and offset; invalid elements are gone.
/// An array field keeps its valid elements in order; a field with none valid is not stored at all.
enum FITValue: Sendable, Equatable {
    case unsigned([UInt64])
    case signed([Int64])
    case real([Double])
    case text(String)
    case bytes([UInt8])

    /// The first element as a number, for the single-valued fields hmon reads.
    var number: Double? {
        switch self {
        case .unsigned(let values): values.first.map { Double($0) }
        case .signed(let values): values.first.map { Double($0) }
        case .real(let values): values.first
        case .text, .bytes: nil
        }
    }
}
