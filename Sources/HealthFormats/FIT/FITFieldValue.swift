/// Turns a field's bytes into its value, per its base type, leaving out invalid elements.
enum FITFieldValue {
    /// Nil when the field holds no valid value. A field whose size is not a whole number of its type's
    /// elements, or whose type the protocol does not define, is read as bytes (as Garmin's SDKs do).
    static func decode(_ raw: ArraySlice<UInt8>, type: FITBaseType?, bigEndian: Bool) -> FITValue? {
        guard !raw.isEmpty else { return nil }
        guard let type, raw.count % type.size == 0 else { return bytes(raw) }
        switch type {
        case .string:
            // UTF-8, ended by a NUL (or by the field's end); an empty string is no value.
            let text = raw.prefix { $0 != 0 }
            return text.isEmpty ? nil : .text(String(decoding: text, as: UTF8.self))
        case .byte:
            return bytes(raw)
        case .float32, .float64:
            let values = elements(raw, size: type.size, bigEndian: bigEndian).compactMap { bits -> Double? in
                // Invalid is all bits set.
                if type == .float32 {
                    return bits == 0xFFFF_FFFF ? nil : Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
                }
                return bits == UInt64.max ? nil : Double(bitPattern: bits)
            }
            return values.isEmpty ? nil : .real(values)
        default:
            let bitCount = UInt64(type.size * 8)
            let invalid: UInt64 = type.isZeroInvalid ? 0 : type.isSigned ? (1 << (bitCount - 1)) - 1 : (bitCount == 64 ? .max : (1 << bitCount) - 1)
            let valid = elements(raw, size: type.size, bigEndian: bigEndian).filter { $0 != invalid }
            guard !valid.isEmpty else { return nil }
            guard type.isSigned else { return .unsigned(valid) }
            // Sign-extend from the type's width.
            let shift = 64 - bitCount
            return .signed(valid.map { Int64(bitPattern: $0 << shift) >> shift })
        }
    }

    /// A byte field is invalid only when every byte is 0xFF.
    private static func bytes(_ raw: ArraySlice<UInt8>) -> FITValue? {
        raw.allSatisfy { $0 == 0xFF } ? nil : .bytes(Array(raw))
    }

    /// The field's elements as unsigned integers of `size` bytes in the definition's byte order.
    private static func elements(_ raw: ArraySlice<UInt8>, size: Int, bigEndian: Bool) -> [UInt64] {
        stride(from: raw.startIndex, to: raw.endIndex, by: size).map { start in
            let element = raw[start..<(start + size)]
            let ordered = bigEndian ? Array(element) : element.reversed()
            return ordered.reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
