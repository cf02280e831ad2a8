import Foundation
import HealthCore
import HealthModel

/// A reading as an import writes it (SQLite and PostgreSQL): its stored JSON and id, or why it is skipped.
///
/// Made on the reading thread (`ImportRowPreparer`), so the writing thread, which sets an import's pace,
/// only finds the device and binds the row. Profiled on a 138 MB export.zip (perf, release build), the
/// writing thread spent about a sixth of its time encoding the JSON, hashing the id and on the allocations
/// around them, while the reading thread waited on it.
package struct ImportRow: Sendable {
    package enum Outcome: Sendable {
        case row(json: String, mid: String, numbers: ReadingNumbers)
        case skipped(reason: String)
    }

    package var reading: ImportedReading
    package var outcome: Outcome
}

/// What marks a stored reading as one of a span total's kind: the kind's number column when it has one (found
/// through its index), else its field in the reading's JSON.
package enum SpanTotalMark: Hashable, Sendable {
    case column(String)
    case field(String)
}

extension ImportedReading {
    /// For a span's total (`isSpanTotal`), what marks a reading of its kind: the writers replace what the
    /// source's device holds of that kind at the span's time, so a later download of a day replaces its
    /// figure rather than leaving the first one. Nil for any other reading.
    package var spanTotalMark: SpanTotalMark? {
        guard isSpanTotal else { return nil }
        return ReadingNumbers.columnOfField[kind.field].map(SpanTotalMark.column) ?? .field(kind.field)
    }
}

/// Everything about a reading's row that needs no database: the time check, the JSON (with a scale
/// reading's source), the deterministic id, the four numbers kept beside the JSON.
package struct ImportRowPreparer: ReadingPreparer {
    package let userID: String
    /// When the import runs, ms since the epoch: a reading more than a day after it is refused.
    package let received: Int64
    /// The last source written into a scale reading, as a JSON string (sources come in long runs).
    private var lastSource: (name: String, json: String)?

    package init(userID: String, received: Int64) {
        self.userID = userID
        self.received = received
    }

    package mutating func prepare(_ reading: ImportedReading) throws -> ImportRow {
        if let problem = ReadingTime.problem(reading.timestamp, now: received) {
            return ImportRow(reading: reading, outcome: .skipped(reason: "reading dated \(problem)"))
        }
        var json: String, numbers: ReadingNumbers
        do {
            (json, numbers) = try StoredReading.encoded(reading)
        } catch let refused as HealthError {
            // The parsers keep to the same ranges, so this is a value at their very edge.
            return ImportRow(reading: reading, outcome: .skipped(reason: "\(reading.kind.rangeName) refused: \(refused.message)"))
        }
        // The id comes from the reading as before sources were kept, so earlier imports are recognized.
        let mid = StoredReading.mid(userID: userID, reading: reading, json: json)
        if reading.kind.builtInType == .withings, !reading.source.isEmpty {
            json = StoredReading.json(json, addingSource: sourceJSON(reading.source))
        }
        return ImportRow(reading: reading, outcome: .row(json: json, mid: mid, numbers: numbers))
    }

    /// `StoredReading.sourceJSON`, remembered for the last source.
    private mutating func sourceJSON(_ source: String) -> String {
        if let lastSource, lastSource.name == source { return lastSource.json }
        let encoded = StoredReading.sourceJSON(source)
        lastSource = (source, encoded)
        return encoded
    }
}
