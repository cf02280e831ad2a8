import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// The CRC-32 the import sums over a zip entry, checked against the standard's published values.
@Suite struct ZipChecksumTests {
    static func crc(_ chunks: [[UInt8]]) -> UInt32 {
        var checksum = ZipChecksum()
        for chunk in chunks { chunk.withUnsafeBytes { checksum.add($0) } }
        return checksum.value
    }

    @Test func theStandardsCheckValuesComeOut() {
        // CRC-32/ISO-HDLC (zip, gzip, PNG): "123456789" gives 0xCBF43926, the catalogue's check value;
        // nothing gives 0; "The quick brown fox jumps over the lazy dog" gives 0x414FA339 (zlib's crc32).
        #expect(Self.crc([Array("123456789".utf8)]) == 0xCBF4_3926)
        #expect(Self.crc([]) == 0)
        #expect(Self.crc([Array("The quick brown fox jumps over the lazy dog".utf8)]) == 0x414F_A339)
    }

    @Test func chunksOfAnySizeSumAsTheWhole() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = Self.crc([bytes])
        for size in [1, 3, 7, 8, 9, 64, 999] {
            let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
            #expect(Self.crc(chunks) == whole, "chunks of \(size)")
        }
    }
}
