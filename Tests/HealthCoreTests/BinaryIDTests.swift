import Foundation
import Testing
@testable import HealthCore

/// `BinaryID`: how a reading's ids are kept as bytes (issue 30, item 1). Every case is worked by hand from
/// the rules in `BinaryID`'s documentation; the round trips and the order are what the store relies on.
@Suite struct BinaryIDTests {
    @Test func thirtyTwoLowercaseHexDigitsAreTheirSixteenBytes() {
        let id = "0123456789abcdef00ff7f80a5c3e1d2"
        let bytes = BinaryID.encode(id)
        #expect(bytes == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x00, 0xFF, 0x7F, 0x80, 0xA5, 0xC3, 0xE1, 0xD2])
        #expect(BinaryID.decode(bytes) == id)
    }

    @Test func aDeviceTypesIdIsDAndItsSixteenBytes() {
        let id = "dt29673f0481b4401bb73a622353b96150"
        let bytes = BinaryID.encode(id)
        #expect(bytes == [0x64, 0x29, 0x67, 0x3F, 0x04, 0x81, 0xB4, 0x40, 0x1B, 0xB7, 0x3A, 0x62, 0x23, 0x53, 0xB9, 0x61, 0x50])
        #expect(BinaryID.decode(bytes) == id)
    }

    @Test(arguments: [
        "0123456789ABCDEF0123456789ABCDEF",  // upper case: kept as given, so it comes back upper case
        "u1", "planted", "F3A1E2D4-0000-4000-8000-00000000000A", "élodie-scale-1",
        "0123456789abcdef0123456789abcde",  // 31 digits
        "dt0123456789abcdef0123456789abcdeg",  // not hex after "dt"
        "",
    ])
    func anyOtherIdIsFFAndItsUTF8AndComesBackAsItWas(_ id: String) {
        let bytes = BinaryID.encode(id)
        #expect(bytes.first == 0xFF)
        #expect(bytes.count != 16, "never taken for a 16-byte id")
        #expect(BinaryID.decode(bytes) == id)
    }

    @Test func aFifteenByteIdGetsASecondFFSoItIsNotSixteenBytes() {
        let id = "abcdefghijklmno"
        #expect(BinaryID.encode(id) == [0xFF] + Array(id.utf8) + [0xFF])
        #expect(BinaryID.decode(BinaryID.encode(id)) == id)
        // Sixteen bytes of UTF-8 need no second FF: 17 bytes already.
        #expect(BinaryID.encode("abcdefghijklmnop").count == 17)
        #expect(BinaryID.decode(BinaryID.encode("abcdefghijklmnop")) == "abcdefghijklmnop")
    }

    @Test func bytesNoEncodeMadeComeBackAsHex() {
        #expect(BinaryID.decode([0x01, 0xFE]) == "01fe")
        #expect(BinaryID.decode([0xFF, 0xC3]) == "ffc3", "0xFF then a broken UTF-8 sequence")
    }

    @Test func sixteenByteIdsSortAsTheirHexDoes() {
        var generator = SystemRandomNumberGenerator()
        let ids = (0..<500).map { _ in (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined() }
        let byText = ids.sorted()
        let byBytes = ids.map(BinaryID.encode).sorted { $0.lexicographicallyPrecedes($1) }.map { BinaryID.decode($0) }
        #expect(byBytes == byText)
    }

    @Test func aHexPrefixIsAByteRange() throws {
        let abc = try #require(BinaryID.range(ofHexPrefix: "abc"))
        #expect(abc.lower == [0xAB, 0xC0] && abc.upper == [0xAB, 0xD0])
        let zeroF = try #require(BinaryID.range(ofHexPrefix: "0f"))
        #expect(zeroF.lower == [0x0F] && zeroF.upper == [0x10])
        let a9f = try #require(BinaryID.range(ofHexPrefix: "a9f"))
        #expect(a9f.lower == [0xA9, 0xF0] && a9f.upper == [0xAA], "the carry runs past the f")
        let f = try #require(BinaryID.range(ofHexPrefix: "ff"))
        #expect(f.lower == [0xFF] && f.upper == nil, "nothing above")
        #expect(BinaryID.range(ofHexPrefix: "ABC") == nil && BinaryID.range(ofHexPrefix: "xyz") == nil)

        // Every id in the range starts with the prefix, and every id outside does not.
        let inside = BinaryID.encode("abc00000000000000000000000000000"), last = BinaryID.encode("abcfffffffffffffffffffffffffffff")
        let below = BinaryID.encode("abbfffffffffffffffffffffffffffff"), above = BinaryID.encode("abd00000000000000000000000000000")
        func isIn(_ bytes: [UInt8]) -> Bool {
            !bytes.lexicographicallyPrecedes(abc.lower) && bytes.lexicographicallyPrecedes(abc.upper!)
        }
        #expect(isIn(inside) && isIn(last) && !isIn(below) && !isIn(above))
    }
}
