import CZlibChecksum
import HealthModel

/// The CRC-32 (ISO-HDLC, as zip uses it) of a zip entry as it inflates, summed by zlib.
///
/// ZIPFoundation checks it too, but on Linux with its own table loop a byte at a time: profiled on a
/// 138 MB export.zip (perf, release build) that loop was 62 % of the reading thread's time, more than
/// inflating and scanning the XML together. The import asks ZIPFoundation to skip its own and compares
/// this one with the entry's. zlib (which ZIPFoundation already links to inflate) sums about 6.7 GB/s
/// here; a slicing-by-eight loop of our own, which this replaced, did about 2.2 (13 % of the reading
/// thread, which now sets the import's pace as much as the writing one).
struct ZipChecksum {
    private(set) var value: UInt32 = 0

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        value = hmon_crc32(value, start, UInt(bytes.count))
    }
}
