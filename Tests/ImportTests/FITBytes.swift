import Foundation
@testable import HealthFormats

/// FIT files made byte by byte for the decoder's tests: records laid out as the FIT protocol says, the
/// header and file CRCs computed (the CRC itself is checked against its published check value and against
/// files Garmin's SDK reads).
struct FITBytes {
    var records: [UInt8] = []

    /// A definition message: `fields` as (number, size, base type byte); `developer` as (number, size, index).
    mutating func define(local: UInt8, global: UInt16, bigEndian: Bool = false, fields: [(UInt8, UInt8, UInt8)],
                         developer: [(UInt8, UInt8, UInt8)] = []) {
        records.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
        records += [0, bigEndian ? 1 : 0]
        records += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        records.append(UInt8(fields.count))
        for field in fields { records += [field.0, field.1, field.2] }
        if !developer.isEmpty {
            records.append(UInt8(developer.count))
            for field in developer { records += [field.0, field.1, field.2] }
        }
    }

    /// A data message under a normal header.
    mutating func data(local: UInt8, _ bytes: [UInt8]) {
        records.append(local)
        records += bytes
    }

    /// A data message under a compressed-timestamp header: `seconds` is the time's low five bits.
    mutating func compressed(local: UInt8, seconds: UInt8, _ bytes: [UInt8]) {
        records.append(0x80 | (local << 5) | seconds)
        records += bytes
    }

    /// The whole file: a 14-byte header with its CRC, the records, the file CRC.
    func file(headerSize: UInt8 = 14) -> [UInt8] {
        let size = UInt32(records.count)
        var bytes: [UInt8] = [headerSize, 0x20, 0x52, 0x08]
        bytes += [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
        bytes += Array(".FIT".utf8)
        if headerSize == 14 { bytes += Self.little(FITCRC.of(bytes)) }
        bytes += records
        return bytes + Self.little(FITCRC.of(bytes))
    }

    static func little(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func little(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// 2026-03-14 06:40:00 UTC as a FIT `date_time`.
    static let morning: UInt32 = UInt32(1_773_470_400 - 631_065_600)
}
