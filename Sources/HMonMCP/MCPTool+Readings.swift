import Foundation
import HealthModel
import HMonCommandLine

extension MCPTool {
    /// The most readings one call returns, and the longest span it may name.
    static let maxReadings = 1_000
    static let maxReadingDays = 3_660

    /// `hmon reading list --field F --json`'s objects for one kind of reading over a span, bounded.
    static let readings = MCPTool(
        name: "readings",
        description: """
            The person's readings of one kind over a span of days, newest first, at most `limit` of them: each \
            {"id", "time", "device", "source", "values": {field: figure}, "units": {field: unit}} as `hmon \
            reading list --json` prints it, figures in the person's own units (kg or lb, kcal or kJ, °C or °F). JSON \
            {"kind", "from", "to", "readings": […], "more": true when the limit cut the list}.
            """,
        arguments: ArgumentSchema([
            ArgumentSchema.oneOf("kind", ReadingKind.allCases.map(\.name), "The kind of reading (required)."),
            ArgumentSchema.day("from", "The first day, YYYY-MM-DD (default 6 days before to)."),
            ArgumentSchema.day("to", "The last day, YYYY-MM-DD, included (default today)."),
            ArgumentSchema.integer("limit", 1...maxReadings, default: 100, "The most readings to return."),
        ]),
        answer: { arguments, reader in
            guard let name = try arguments.word("kind"), let kind = ReadingKind(rawValue: name) else {
                throw ToolRefusal("kind is required: one of \(ReadingKind.allCases.map(\.name).joined(separator: ", "))")
            }
            let calendar = reader.calendar
            let to = try arguments.day("to") ?? Day(reader.now(), in: calendar)
            let from = try arguments.day("from") ?? to.adding(days: -6)
            guard from <= to else { throw ToolRefusal("to (\(to)) must not be before from (\(from))") }
            guard from.days(to: to) < maxReadingDays else {
                throw ToolRefusal("from…to spans \(from.days(to: to) + 1) days: at most \(maxReadingDays) a call")
            }
            let limit = try arguments.integer("limit")
            let service = reader.service
            let found = try await service.readings(ReadingsQuery(
                from: from.start(in: calendar).millisecondsSince1970, to: to.adding(days: 1).start(in: calendar).millisecondsSince1970,
                field: kind.field, order: .desc, limit: limit + 1))
            let devices = Dictionary(try await service.devices().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let units = QuantityText(try await service.profile())
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = calendar.timeZone
            let objects = found.prefix(limit).map {
                ListingJSON.reading($0, device: devices[$0.sdid] ?? $0.sdid, time: formatter.string(from: $0.date), units: units)
            }
            let document: [String: Any] = ["kind": kind.name, "from": from.description, "to": to.description,
                                           "readings": objects, "more": found.count > limit]
            let json = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
            return MCPAnswer(json: json)
        })
}
