import Foundation
import Testing
@testable import HealthFormats

/// Every fixture with each of its bytes changed in turn, the CRC made to match so that the records
/// themselves are read, and cut at every length: the decoder reads it or refuses it with a `FITProblem`
/// inside the file, and never traps.
@Suite struct FITDamageTests {
    static func fixtures() -> [[UInt8]] {
        DownloadFile.files(in: GarminFITImportTests.fixture).filter(GarminFIT.isFITFile).compactMap { try? [UInt8]($0.data()) }
    }

    /// The file with its last two bytes recomputed as the CRC of the rest.
    static func withMatchingCRC(_ bytes: [UInt8]) -> [UInt8] {
        let crc = FITCRC.of(bytes.dropLast(2))
        return Array(bytes.dropLast(2)) + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    func decodesOrRefusesWithin(_ bytes: [UInt8]) -> String? {
        do {
            for message in try FITDecoder.messages(bytes) {
                _ = message.time()
                for number in message.fields.keys { _ = (message.value(number), message.integer(number)) }
            }
            return nil
        } catch let problem as FITProblem {
            return (0...bytes.count).contains(problem.offset) ? nil : "offset \(problem.offset) outside a file of \(bytes.count) bytes"
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    @Test func eachByteChangedInTurnIsReadOrRefusedNeverATrap() {
        var failures: [String] = []
        var tried = 0
        for file in Self.fixtures() {
            for index in 0..<(file.count - 2) {
                for replacement: UInt8 in [0x00, 0xFF, file[index] ^ 0x80, file[index] &+ 1] {
                    var bytes = file
                    bytes[index] = replacement
                    tried += 1
                    if let failure = decodesOrRefusesWithin(Self.withMatchingCRC(bytes)) { failures.append("byte \(index) → \(replacement): \(failure)") }
                }
            }
        }
        #expect(tried > 1_500)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func aFileCutAtAnyLengthIsRefusedWhereItEnds() {
        for file in Self.fixtures() {
            for length in 0..<file.count {
                let cut = Array(file.prefix(length))
                #expect(throws: FITProblem.self) { try FITDecoder.messages(cut) }
            }
        }
    }
}
