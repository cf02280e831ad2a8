import Foundation
import HealthCore
import HealthModel

/// The last nights' sleep as the readings keep them: one reading a night, on the day it ends, with time asleep
/// (or only time in bed, for a night a phone's schedule saw) and the stages beside it, in minutes. Kept to
/// what the readings hold, with no rule of its own: the sleep screen is where nights are worked out.
enum SleepNightsJSON {
    /// Each figure a night may carry: its key here and the kind of reading it is.
    static let figures: [(key: String, kind: ReadingKind)] = [
        ("asleepMinutes", .sleep), ("inBedMinutes", .timeInBed), ("deepMinutes", .deepSleep),
        ("remMinutes", .remSleep), ("coreMinutes", .coreSleep), ("awakeMinutes", .sleepAwake),
    ]

    /// `{"nights": [{"day", "asleepMinutes", "inBedMinutes", "deepMinutes", "remMinutes", "coreMinutes",
    /// "awakeMinutes", "device"}]}`, newest first, a figure the night lacks null; and a line a night.
    static func read(_ service: any HealthService, nights: Int, now: Date, calendar: Calendar) async throws -> (json: Data, lines: [String]) {
        let first = Day(now, in: calendar).adding(days: -(nights - 1))
        let from = first.start(in: calendar).millisecondsSince1970
        var found: [String: Message] = [:]
        for kind in [ReadingKind.sleep, .timeInBed] {
            for reading in try await service.readings(ReadingsQuery(from: from, to: now.millisecondsSince1970 + 1, field: kind.field,
                                                                    order: .desc)) {
                found[reading.mid] = reading
            }
        }
        let readings = found.values.sorted { $0.ts != $1.ts ? $0.ts > $1.ts : $0.mid < $1.mid }
        let devices = Dictionary(try await service.devices().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var objects: [[String: Any]] = []
        var lines: [String] = []
        for reading in readings {
            let day = Day(reading.date, in: calendar).description
            var object: [String: Any] = ["day": day, "device": devices[reading.sdid] ?? reading.sdid]
            var words: [String] = []
            for (key, kind) in figures {
                let minutes = reading.data[kind.field]?.number.flatMap { $0.isFinite ? $0 : nil }
                object[key] = minutes.map { $0 as Any } ?? NSNull()
                if let minutes { words.append("\(kind.label.lowercased()) \(Self.hours(minutes))") }
            }
            objects.append(object)
            lines.append("night to \(day): " + words.joined(separator: ", "))
        }
        let json = try JSONSerialization.data(withJSONObject: ["nights": objects], options: [.sortedKeys, .withoutEscapingSlashes])
        return (json, lines.isEmpty ? ["no nights of sleep in the last \(nights) days"] : lines)
    }

    /// 452 minutes → "7 h 32 min".
    static func hours(_ minutes: Double) -> String {
        let whole = Int(minutes.rounded())
        return whole < 60 ? "\(whole) min" : "\(whole / 60) h \(whole % 60) min"
    }
}
