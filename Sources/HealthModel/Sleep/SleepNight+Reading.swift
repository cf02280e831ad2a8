import Foundation

extension SleepNight {
    /// The night a stored reading of `sleep` (or `timeInBed`) holds, with its window and stages where it
    /// keeps them; nil for a reading of neither. `source` names it (its `source` field, else its device).
    public init?(reading: Message, device: String, calendar: Calendar) {
        var minutes: [ReadingKind: Double] = [:]
        for kind in [ReadingKind.sleep, .timeInBed, .deepSleep, .remSleep, .coreSleep, .sleepAwake] {
            if let value = reading.data[kind.field]?.number { minutes[kind] = value }
        }
        guard minutes[.sleep] != nil || minutes[.timeInBed] != nil else { return nil }
        let kept = SleepFields.read(endMs: reading.ts, windowMinutes: reading.data[Field.sleepWindowMinutes]?.number,
                                    hypnogram: reading.data[Field.hypnogram]?.textValue)
        self.init(day: SleepNights.day(endingAt: reading.ts, calendar: calendar), endMs: reading.ts,
                  source: reading.data[Field.source]?.textValue ?? device, minutes: minutes,
                  startMs: kept.startMs, hypnogram: kept.hypnogram)
    }

    /// One night a day of `nights`: where a day has several readings (two exports that saw the night
    /// differently, kept side by side), the one with the most time asleep, then in bed, then the latest.
    public static func onePerDay(_ nights: [SleepNight]) -> [SleepNight] {
        Dictionary(grouping: nights, by: \.day).values.map { day in
            day.max { a, b in
                (a.minutes[.sleep] ?? 0, a.minutes[.timeInBed] ?? 0, a.endMs) < (b.minutes[.sleep] ?? 0, b.minutes[.timeInBed] ?? 0, b.endMs)
            }!
        }.sorted { $0.day < $1.day }
    }
}
