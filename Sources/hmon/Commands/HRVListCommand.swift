import ArgumentParser
import CheckedNumbers
import Foundation
import HealthCore
import HealthModel
import HMonCommandLine

/// `hmon hrv list [--since DATE] [--until DATE] [--limit N] [--json]`: the HRV measurements, newest first,
/// as the HRV screen's table shows them, with the ids `hmon hrv show` and `hmon reading edit|delete` take.
struct HRVListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List your HRV measurements, newest first.")

    @OptionGroup var store: StoreOptions

    @OptionGroup var period: PeriodOptions

    @Flag(help: "A JSON array of the measurements, each with its id, time, device, source and every field it has.")
    var json = false

    func run() async throws {
        let calendar = Calendar.current
        let now = Date()
        let (from, to) = try period.range(now: now, calendar: calendar)
        let limit = period.limit
        let service = try await StoreOpener(store).open(.readOnly).service
        // An RMSSD, or Apple's SDNN of a record whose beats were refused: asked for apart, merged newest first.
        var found: [String: Message] = [:]
        for field in [Field.rmssd, Field.appleSDNN] {
            for reading in try await service.readings(ReadingsQuery(
                from: from, to: to, field: field, order: .desc, limit: limit)) {
                found[reading.mid] = reading
            }
        }
        let measurements = Array(found.values.sorted { $0.ts != $1.ts ? $0.ts > $1.ts : $0.mid < $1.mid }.prefix(limit))
        let devices = Dictionary(try await service.devices().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        if json {
            print(try HRVMeasurementText.json(measurements.map { HRVMeasurementText.object($0, device: devices[$0.sdid]) }))
            return
        }
        if measurements.isEmpty {
            printEscaped("no HRV measurements\(period.isBounded ? " in that period" : ""): add one with `hmon add hrv --rmssd 52.4`")
            return
        }
        let rows = measurements.map { m in
            [LocalTime.format(m.date, calendar: calendar), HRVMeasurementText.number(m.data[Field.rmssd], decimals: 1),
             HRVMeasurementText.number(m.data[Field.sdnn], decimals: 1), HRVMeasurementText.number(m.data[Field.appleSDNN], decimals: 1),
             HRVMeasurementText.percent(m.data[Field.stress]),
             HRVMeasurementText.number(m.data[Field.heartRate], decimals: 0), HRVMeasurementText.source(m),
             devices[m.sdid] ?? m.sdid, m.mid]
        }
        printEscaped(Formatting.table(["TIME", "RMSSD", "SDNN", "APPLE SDNN", "STRESS", "HR", "SOURCE", "DEVICE", "ID"], rows))
    }
}

/// `hmon hrv show ID [--json]`: one measurement, every field it has (the id, or its first 4 or more characters).
struct HRVShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one HRV measurement, every field it has.")

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The measurement's id, as `hmon hrv list` shows it, or its first 4 or more characters.",
                                 valueName: "id"))
    var id: String

    @Flag(help: "The measurement as a JSON object.")
    var json = false

    func run() async throws {
        let service = try await StoreOpener(store).open(.readOnly).service
        let reading = try await service.reading(id: try await service.readingID(matching: id))
        guard reading.data[Field.rmssd] != nil || reading.data[Field.appleSDNN] != nil else {
            throw CommandError("reading \(reading.mid) is not an HRV measurement: see it with `hmon reading list`")
        }
        let device = try await service.devices().first { $0.id == reading.sdid }?.name
        let object = HRVMeasurementText.object(reading, device: device)
        if json {
            print(try HRVMeasurementText.json(object))
            return
        }
        var pairs = [("id", reading.mid), ("time", LocalTime.format(reading.date, calendar: .current)),
                     ("device", device ?? reading.sdid), ("source", HRVMeasurementText.source(reading))]
        for (name, value) in reading.data.sorted(by: { $0.key < $1.key }) where name != Field.source {
            switch value {
            case .number(let n): pairs.append((name, n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : n.description))
            case .text(let t): pairs.append((name, t))
            }
        }
        let width = (pairs.map(\.0.count).max() ?? 0) + 2
        printEscaped(pairs.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n"))
    }
}

/// How the `hrv` subcommands write a measurement.
enum HRVMeasurementText {
    /// Who measured it: Welltory, hmon from beats, by hand, or a watch's own figure (no source field); a
    /// watch's record whose beats hmon refused says why ("watch, beats refused: no variability").
    static func source(_ reading: Message) -> String {
        switch (reading.data[Field.source], reading.data[Field.beatsRefused]) {
        case (.text(let source)?, _): source
        case (_, .text(let reason)?): "watch, beats refused: " + reason
        default: "watch"
        }
    }

    static func number(_ value: FieldValue?, decimals: Int) -> String {
        guard case .number(let n)? = value, n.isFinite else { return "—" }
        return String(format: "%.\(decimals)f", n)
    }

    static func percent(_ value: FieldValue?) -> String {
        guard case .number(let n)? = value, n.isFinite else { return "—" }
        return "\(Int(rounding: n * 100)) %"
    }

    /// `{"id","time","device","source", …every field}`; numbers that JSON cannot hold are null.
    static func object(_ reading: Message, device: String?) -> [String: Any] {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        var object: [String: Any] = ["id": reading.mid, "time": formatter.string(from: reading.date),
                                     "device": device ?? reading.sdid, "source": source(reading)]
        for (name, value) in reading.data where name != Field.source {
            switch value {
            case .number(let n): object[name] = n.isFinite ? n : NSNull()
            case .text(let t): object[name] = t
            }
        }
        return object
    }

    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
               as: UTF8.self)
    }
}
