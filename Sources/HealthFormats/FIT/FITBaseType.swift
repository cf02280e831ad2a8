/// The base types a FIT field definition names (its third byte), with their sizes and invalid values.
enum FITBaseType: UInt8, Sendable {
    case enumeration = 0x00, sint8 = 0x01, uint8 = 0x02, sint16 = 0x03, uint16 = 0x04, sint32 = 0x05, uint32 = 0x06
    case string = 0x07, float32 = 0x08, float64 = 0x09, uint8z = 0x0A, uint16z = 0x0B, uint32z = 0x0C, byte = 0x0D
    case sint64 = 0x0E, uint64 = 0x0F, uint64z = 0x10

    /// The type of a definition's base-type byte: its low five bits are the type's number (the high bit only
    /// says whether the type has an endianness). Nil for a number the protocol does not define.
    init?(definitionByte: UInt8) {
        self.init(rawValue: definitionByte & 0x1F)
    }

    var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: 1
        case .sint16, .uint16, .uint16z: 2
        case .sint32, .uint32, .uint32z, .float32: 4
        case .float64, .sint64, .uint64, .uint64z: 8
        }
    }

    /// The z types mark "no value" with 0; the others with their largest (signed: largest positive) value.
    var isZeroInvalid: Bool { self == .uint8z || self == .uint16z || self == .uint32z || self == .uint64z }
    var isSigned: Bool { self == .sint8 || self == .sint16 || self == .sint32 || self == .sint64 }
}
