import Foundation
import HealthModel

/// One document of `GET /v2/usercollection/daily_readiness` (Oura's `DailyReadinessModel`), the fields hmon
/// reads: the day's 0–100 score (null until Oura has computed it), the night's skin temperature deviation
/// from the person's baseline in °C (`temperature_deviation`), and the time the day starts in the ring's
/// zone. Its contributors and the temperature trend are not read.
public struct OuraDailyReadiness: Decodable, Sendable, Equatable {
    public var id: String
    public var day: String
    public var score: Double?
    public var timestamp: String
    public var temperature_deviation: Double?

    public init(id: String, day: String, score: Double?, timestamp: String, temperature_deviation: Double? = nil) {
        self.id = id
        self.day = day
        self.score = score
        self.timestamp = timestamp
        self.temperature_deviation = temperature_deviation
    }
}

/// Oura's daily readiness documents as hmon keeps them: a reading a day of the score as Oura gives it and
/// one of the temperature deviation, at the start of the day in the ring's zone. The day names each across
/// pulls, so a figure Oura recomputes replaces the one kept (`OuraArrival`).
public struct OuraReadinessDays: Sendable {
    public var readings: [OuraReading] = []
    /// Documents not kept, counted by why ("no score yet").
    public var skipped: [String: Int] = [:]

    public init(_ documents: [OuraDailyReadiness]) {
        for document in documents {
            guard let start = OuraTime.date(document.timestamp) else {
                skipped["a timestamp that is not an ISO 8601 time", default: 0] += 1
                continue
            }
            // Oura's word, made safe for an id: it comes from outside.
            let day = TextRules.replacingUnsafe(in: String(document.day.prefix(10))).text
            if let deviation = document.temperature_deviation {
                if let accepted = try? ReadingRules.accepted(deviation, for: ReadingKind.skinTemperatureChange.fieldSpec) {
                    readings.append(OuraReading(kind: .skinTemperatureChange, key: "temperature:\(day)", timestamp: start.millisecondsSince1970,
                                                value: accepted))
                } else {
                    skipped["a temperature deviation outside ±10 °C", default: 0] += 1
                }
            }
            guard let score = document.score else {
                skipped["no score yet", default: 0] += 1
                continue
            }
            guard let accepted = try? ReadingRules.accepted(score.rounded(), for: ReadingKind.readiness.fieldSpec) else {
                skipped["a score outside 0–100", default: 0] += 1
                continue
            }
            readings.append(OuraReading(kind: .readiness, key: "readiness:\(day)", timestamp: start.millisecondsSince1970, value: accepted))
        }
    }

    /// What was not kept, as a person reads it: "1 readiness day skipped (no score yet)".
    public var skippedText: [String] {
        skipped.sorted { $0.key < $1.key }.map { "\($0.value) readiness day\($0.value == 1 ? "" : "s") skipped (\($0.key))" }
    }
}
