import Foundation
import Testing
@testable import HealthFormats

/// The FIT decoder on files laid out by hand, each figure worked out from the FIT protocol: compressed
/// timestamps, big-endian definitions, developer fields skipped by their size, invalid values absent, and
/// every kind of damage refused with the byte it is at.
@Suite struct FITDecoderTests {
    /// uint32 timestamp (253) and uint16 weight (0) of `weight_scale` (30).
    static func weighIns() -> FITBytes {
        var fit = FITBytes()
        fit.define(local: 0, global: 30, fields: [(253, 4, 0x86), (0, 2, 0x84)])
        return fit
    }

    @Test func theCRCIsFITsCRC16WithItsPublishedCheckValue() {
        // CRC-16/ARC, which FIT's nibble table computes: "123456789" gives 0xBB3D.
        #expect(FITCRC.of(Array("123456789".utf8)) == 0xBB3D)
    }

    @Test func aFullTimestampThenCompressedOnesCountOnFromItAndRollOver() throws {
        var fit = Self.weighIns()
        // Weights 72.45 kg, 72.40 kg, 72.35 kg; the compressed headers carry the time's low five bits.
        let full = FITBytes.morning
        fit.data(local: 0, FITBytes.little(full) + FITBytes.little(UInt16(7245)))
        fit.define(local: 1, global: 30, fields: [(0, 2, 0x84)])
        let low = UInt8(full & 0x1F)
        // One second on, then a low part smaller than the last: the 32-second counter rolled over.
        fit.compressed(local: 1, seconds: (low + 1) & 0x1F, FITBytes.little(UInt16(7240)))
        fit.compressed(local: 1, seconds: low, FITBytes.little(UInt16(7235)))
        let messages = try FITDecoder.messages(fit.file())
        #expect(messages.map { $0.value(0, scale: 100) } == [72.45, 72.4, 72.35])
        let base = (Int64(full) + 631_065_600) * 1000
        #expect(messages.map { $0.time() } == [base, base + 1000, base + 32_000])
    }

    @Test func aBigEndianDefinitionReadsItsNumbersMostSignificantByteFirst() throws {
        var fit = FITBytes()
        // blood_pressure (51): systolic uint16, diastolic uint16, heart rate uint8; serial-like uint32z.
        fit.define(local: 0, global: 51, bigEndian: true, fields: [(0, 2, 0x84), (1, 2, 0x84), (6, 1, 0x02), (9, 4, 0x8C)])
        fit.data(local: 0, [0x00, 0x80, 0x00, 0x52, 0x40, 0x01, 0x02, 0x03, 0x04])
        let message = try #require(try FITDecoder.messages(fit.file()).first)
        #expect(message.global == 51)
        #expect(message.value(0) == 128)
        #expect(message.value(1) == 82)
        #expect(message.value(6) == 64)
        #expect(message.integer(9) == 0x0102_0304)
    }

    @Test func developerFieldsAreSkippedByTheirSizeAndTheNextMessageStillReads() throws {
        var fit = Self.weighIns()
        fit.define(local: 2, global: 30, fields: [(253, 4, 0x86), (0, 2, 0x84)], developer: [(0, 3, 0), (1, 1, 0)])
        fit.data(local: 2, FITBytes.little(FITBytes.morning) + FITBytes.little(UInt16(7000)) + [0xAA, 0xBB, 0xCC, 0xDD])
        fit.data(local: 0, FITBytes.little(FITBytes.morning + 60) + FITBytes.little(UInt16(7100)))
        let messages = try FITDecoder.messages(fit.file())
        #expect(messages.map { $0.value(0, scale: 100) } == [70, 71])
        #expect(messages.map { Set($0.fields.keys) } == [[0, 253], [0, 253]], "the developer bytes are not read as fields")
    }

    @Test func invalidValuesAreAbsentAndSignedOnesKeepTheirSign() throws {
        var fit = FITBytes()
        // uint16 0xFFFF, uint32z 0, sint8 0x7F, empty string: all "no value"; sint16 −5, float32 1.5, uint8z 7.
        fit.define(local: 0, global: 999, fields: [(0, 2, 0x84), (1, 4, 0x8C), (2, 1, 0x01), (3, 4, 0x07),
                                                    (4, 2, 0x83), (5, 4, 0x88), (6, 1, 0x0A), (7, 4, 0x88)])
        fit.data(local: 0, [0xFF, 0xFF, 0, 0, 0, 0, 0x7F, 0, 0, 0, 0, 0xFB, 0xFF]
                 + FITBytes.little(Float(1.5).bitPattern) + [7] + [0xFF, 0xFF, 0xFF, 0xFF])
        let message = try #require(try FITDecoder.messages(fit.file()).first)
        #expect(Set(message.fields.keys) == [4, 5, 6])
        #expect(message.fields[4] == .signed([-5]))
        #expect(message.fields[5] == .real([1.5]))
        #expect(message.fields[6] == .unsigned([7]))
    }

    @Test func aTwelveByteHeaderWithoutItsCRCReadsToo() throws {
        var fit = Self.weighIns()
        fit.data(local: 0, FITBytes.little(FITBytes.morning) + FITBytes.little(UInt16(7245)))
        #expect(try FITDecoder.messages(fit.file(headerSize: 12)).first?.value(0, scale: 100) == 72.45)
    }

    // Bad input: the byte offset each message names.

    func problem(_ bytes: [UInt8]) -> FITProblem? {
        do {
            _ = try FITDecoder.messages(bytes)
            return nil
        } catch {
            return error as? FITProblem
        }
    }

    @Test func aTruncatedFileIsRefusedAtItsEnd() {
        var fit = Self.weighIns()
        fit.data(local: 0, FITBytes.little(FITBytes.morning) + FITBytes.little(UInt16(7245)))
        let whole = fit.file()
        let cut = Array(whole.dropLast(5))
        #expect(problem(cut)?.offset == cut.count)
        #expect(problem(cut)?.message.contains("truncated") == true)
        #expect(problem(Array(whole.prefix(9)))?.offset == 0, "not even a header")
    }

    @Test func aWrongFileCRCIsRefusedWhereTheCRCIs() {
        var fit = Self.weighIns()
        fit.data(local: 0, FITBytes.little(FITBytes.morning) + FITBytes.little(UInt16(7245)))
        var bytes = fit.file()
        bytes[20] ^= 0x01  // one bit of the records
        #expect(problem(bytes)?.offset == bytes.count - 2)
        #expect(problem(bytes)?.message.contains("CRC") == true)
    }

    @Test func aWrongHeaderCRCIsRefusedAtByte12() {
        var bytes = Self.weighIns().file()
        bytes[12] ^= 0xFF
        #expect(problem(bytes)?.offset == 12)
    }

    @Test func aFileWithoutTheSignatureIsNotFIT() {
        var bytes = Self.weighIns().file()
        bytes[9] = UInt8(ascii: "X")
        #expect(problem(bytes)?.offset == 8)
        #expect(problem(bytes)?.message.contains("not a FIT file") == true)
    }

    @Test func aDefinitionWhoseFieldsRunPastTheRecordsIsRefusedAtItsHeader() {
        var fit = FITBytes()
        fit.define(local: 0, global: 30, fields: [(253, 4, 0x86), (0, 2, 0x84)])
        fit.records.removeLast(2)  // the definition says two fields and holds one and a third
        #expect(problem(fit.file())?.offset == 14)
        #expect(problem(fit.file())?.message.contains("definition message runs past") == true)
    }

    @Test func aDataMessageLongerThanTheRecordsLeftIsRefusedAtItsHeader() {
        var fit = Self.weighIns()
        fit.data(local: 0, FITBytes.little(FITBytes.morning))  // the weight's two bytes are missing
        let offset = 14 + 1 + 5 + 6  // header, the definition's record header and fixed part, its two fields
        #expect(problem(fit.file())?.offset == offset)
        #expect(problem(fit.file())?.message.contains("needs 6 bytes") == true)
    }

    @Test func aDataMessageOfAnUndefinedLocalTypeIsRefusedAtItsHeader() {
        var fit = Self.weighIns()
        fit.data(local: 3, [0x01])
        #expect(problem(fit.file())?.offset == 14 + 12)
        #expect(problem(fit.file())?.message.contains("local message type 3 comes before any definition") == true)
    }

    @Test func aCompressedTimestampBeforeAnyFullOneIsRefused() {
        var fit = FITBytes()
        fit.define(local: 1, global: 30, fields: [(0, 2, 0x84)])
        fit.compressed(local: 1, seconds: 3, FITBytes.little(UInt16(7000)))
        #expect(problem(fit.file())?.offset == 14 + 9)
    }
}
