/// FIT's 16-bit CRC (the FIT protocol's own nibble-table algorithm, CRC-16/ARC), over the header's
/// first 12 bytes and over the whole file before its last two bytes.
package enum FITCRC {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    static func update(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var crc = crc
        var step = table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ step ^ table[Int(byte & 0xF)]
        step = table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        return crc ^ step ^ table[Int((byte >> 4) & 0xF)]
    }

    package static func of<Bytes: Collection>(_ bytes: Bytes) -> UInt16 where Bytes.Element == UInt8 {
        bytes.reduce(0, update)
    }

    /// `0x0A3F`, as the error messages show a CRC.
    static func hex(_ crc: UInt16) -> String {
        let digits = String(crc, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
