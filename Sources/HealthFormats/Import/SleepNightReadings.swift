import Foundation
import HealthCore
import HealthModel

/// The readings an import makes of the sleep it collected: one a night, stamped when the night's last
/// stretch ended, under its main kind with the other figures beside it (`SleepNight`), and its window and
/// stages against the clock (`SleepFields`). Nights come out
/// only once the whole file is read, since two devices' samples of one night can be far apart in it.
enum SleepNightReadings {
    /// Emits each night of `sleep` and counts it in `tally`; a figure outside a day's minutes skips the night.
    static func emit(_ sleep: SleepNights, timeZone: TimeZone, tally: inout ImportTally,
                     emit: (ImportedReading) throws -> Void) throws {
        guard !sleep.isEmpty else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        for night in sleep.nights(calendar: calendar) {
            guard let kind = night.mainKind, let value = night.minutes[kind] else { continue }
            guard night.minutes.values.allSatisfy(kind.saneRange.contains) else {
                tally.skip(kind, UnitConversion.outOfRangeReason(kind))
                continue
            }
            let window = SleepFields.values(of: night)
            let extras = Dictionary(uniqueKeysWithValues: night.minutes.filter { $0.key != kind }.map { ($0.key.field, $0.value) })
                .merging(window.numbers) { mine, _ in mine }
            tally.kept[kind, default: 0] += 1
            try emit(ImportedReading(kind: kind, source: night.source.isEmpty ? "Health" : night.source,
                                     timestamp: night.endMs, value: value, extras: extras, texts: window.texts))
        }
    }
}
