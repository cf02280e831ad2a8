import Foundation
import HealthCore
import HealthModel

/// The store's device types by name, with their manifests, read before an import of hmon's own export
/// starts: the reading thread types and checks each reading by its manifest without the database.
package struct ExportDeviceTypes: Sendable {
    package struct Entry: Sendable {
        package var type: DeviceType
        package var manifest: Manifest

        package init(type: DeviceType, manifest: Manifest) {
            self.type = type
            self.manifest = manifest
        }
    }

    private var byName: [String: Entry] = [:]

    /// `entries` in the store's order: of two types whose names differ only in ASCII case, the first is
    /// found, as the stores' `COLLATE NOCASE` / `lower(name)` look-ups found it.
    package init(_ entries: [Entry]) {
        for entry in entries where byName[Self.key(entry.type.name)] == nil { byName[Self.key(entry.type.name)] = entry }
    }

    package func entry(named name: String) -> Entry? { byName[Self.key(name)] }

    private static func key(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

/// A reading of hmon's export as the writer inserts it: typed and checked by its manifest, its JSON and
/// the four numbers kept beside it already made, so the writing thread only finds the device and binds.
package struct PreparedExportReading: Sendable {
    package var readingID: String
    /// The line of its first row, for a problem found while writing.
    package var line: Int
    package var deviceName: String
    package var type: DeviceType
    package var ts: Int64
    package var json: String
    package var numbers: ReadingNumbers
    /// What the summary counts it under; nil for "other".
    package var kind: ReadingKind?
}

/// Everything about an exported reading's row that needs no database, done on the reading thread
/// (as `ImportRowPreparer` does for Apple Health's readings): typing each value by the manifest, the
/// reading rules a new reading goes through, the time check, the stored JSON.
package struct ExportReadingPreparer: Sendable {
    package let types: ExportDeviceTypes
    /// When the import runs, ms since the epoch (`StoreRules.checkTimestamp`).
    package let received: Int64
    package let file: String

    package init(types: ExportDeviceTypes, received: Int64, file: String) {
        self.types = types
        self.received = received
        self.file = file
    }

    package func prepare(_ reading: ExportedReading) throws -> PreparedExportReading {
        func problem(_ text: String) -> ImportError { ImportError(file: file, line: reading.line, problem: text) }
        guard let entry = types.entry(named: reading.first.deviceType) else {
            throw problem("no device type \"\(reading.first.deviceType)\" in this store: see `hmon device types`")
        }
        var data: [String: FieldValue] = [:]
        for (name, value) in reading.fields {
            data[name] = try ExportedReadings.typed(value, field: entry.manifest.field(name), name: name, problem: problem)
        }
        let accepted: [String: FieldValue]
        let json: String
        do {
            // The one date rule of every door, as an import of any other format keeps to.
            if let why = ReadingTime.problem(reading.first.ts, now: received) {
                throw HealthError.invalidValue("the reading's time is \(why): check the date")
            }
            accepted = try ReadingRules.accepted(data, manifest: entry.manifest, typeName: entry.type.name)
            json = try StoreRules.encode(accepted)
        } catch let error as HealthError {
            throw problem("reading \(reading.first.readingID): \(error.message)")
        }
        return PreparedExportReading(readingID: reading.first.readingID, line: reading.line, deviceName: reading.first.device,
                                     type: entry.type, ts: reading.first.ts, json: json, numbers: ReadingNumbers(accepted),
                                     kind: ExportedReadings.kind(of: accepted))
    }
}

extension BatchPipe where Item == PreparedExportReading {
    /// Reads hmon's export at `url` on a thread of its own: rows streamed, put together into readings,
    /// each prepared (`ExportReadingPreparer`) and sent in batches. The result holds the format only: the
    /// writer counts what it added.
    package static func startReadingExport(_ url: URL, into pipe: BatchPipe<PreparedExportReading>, preparing preparer: ExportReadingPreparer) {
        startReading(into: pipe) { send in
            var grouper = ExportedReadingGrouper(file: url.lastPathComponent)
            let format = try ExportReader.stream(url) { row in
                if let reading = try grouper.add(row) { try send(try preparer.prepare(reading)) }
            }
            if let reading = grouper.finish() { try send(try preparer.prepare(reading)) }
            return ImportResult(format: format, tally: ImportTally(), profile: ImportedProfile())
        }
    }
}
