import Foundation
import HealthCore
import HealthModel

/// Puts an export's rows back together into readings as they stream past (`hmon import`).
///
/// `hmon export` writes a reading's rows one after another, so only the reading being read is held, and
/// memory stays flat at any file size. Rows of one reading found apart (a file edited or sorted by hand)
/// are refused by the writer, which sees the reading's id already written by the same import.
public struct ExportedReadingGrouper {
    private let file: String
    private var current: ExportedReading?
    private var rowsRead = 0

    public init(file: String) {
        self.file = file
    }

    /// Adds the next row; returns the reading it completes (the one before, when this row starts another).
    /// Throws when the row disagrees with the rest of its reading.
    public mutating func add(_ row: ExportRow) throws -> ExportedReading? {
        rowsRead += 1
        let line = rowsRead + 1  // after the header (CSV) or the opening bracket (JSON)
        if current?.first.readingID == row.readingID, let first = current?.first {
            guard first.ts == row.ts, first.device == row.device, first.deviceType == row.deviceType else {
                throw ImportError(file: file, line: line,
                                  problem: "reading \(row.readingID) has rows with different times or devices: each reading has one")
            }
            if current!.fields.contains(where: { $0.name == row.field }) {
                throw ImportError(file: file, line: line, problem: "reading \(row.readingID) has two rows for \(row.field)")
            }
            current!.fields.append((row.field, row.value))
            return nil
        }
        let done = current
        current = ExportedReading(first: row, line: line, fields: [(row.field, row.value)])
        return done
    }

    /// The last reading of the file.
    public mutating func finish() -> ExportedReading? {
        defer { current = nil }
        return current
    }
}
