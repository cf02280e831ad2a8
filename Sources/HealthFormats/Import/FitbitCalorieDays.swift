import Foundation
import HealthCore
import HealthModel

/// A Fitbit export's energy: `calories-YYYY-MM-DD.json`, the energy burned in each minute
/// (`[{dateTime "MM/dd/yy HH:mm:ss" in UTC, value "1.23"}]`, kcal, resting and active together), made into
/// one resting and one active energy reading a day, at noon of the day in the profile's time zone, as the
/// house keeps other sources' day totals (Health Connect's).
///
/// The split: Fitbit counts every minute of the day at least at the resting rate (its BMR), worn or not, so
/// the day's lowest minute is its resting rate; the day's minutes at that rate are its resting energy and the
/// rest its active energy. Stored so, a day's burn is counted once by the energy balance, which takes recorded
/// resting energy in place of the profile's BMR. A minute file holds a month of minutes; what is kept of it is
/// three numbers a day.
///
/// A minute is counted once, by its time: a Takeout that holds a part twice (a copy, or an export of half a day
/// beside one of the whole day) gives each minute the value its last file gave it, never its sum. Across imports
/// a day's figures are span totals: a later download's day replaces the one an earlier download stored.
struct FitbitCalorieDays {
    private struct Day {
        /// kcal by the minute's time (ms).
        var minutes: [Int64: Double] = [:]

        var total: Double { minutes.values.reduce(0, +) }
        var lowest: Double { minutes.values.min() ?? 0 }
    }

    private var days: [Int: Day] = [:]
    private let zone: TimeZone
    private static let utc = TimeZone(identifier: "UTC")!

    init(zone: TimeZone) {
        self.zone = zone
    }

    /// Adds one file's minutes.
    mutating func add(_ file: DownloadFile, download: String, tally: inout ImportTally) throws {
        var counts = tally
        var days = self.days
        let zone = self.zone
        try JSONArrayRecords.read(file, download: download) { fields, path in
            func field(_ key: String) -> JSONPath { JSONPath(steps: path.steps + [.key(key)]) }
            guard let text = fields["dateTime"]?.text else {
                throw JSONProblem(path: field("dateTime"), message: "is required, like \"03/14/26 06:40:00\"")
            }
            guard let time = FitbitDates.timestamp(text, in: Self.utc) else {
                throw JSONProblem(path: field("dateTime"), message: "\"\(text.prefix(30))\" is not a date and time like 03/14/26 06:40:00")
            }
            guard let kcal = fields["value"]?.number, kcal >= 0, kcal < 100 else {
                counts.skip(.activeEnergy, "Fitbit calorie minute without a value of 0–100 kcal")
                return
            }
            let seconds = time / 1000
            let local = seconds + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
            let day = Int((local >= 0 ? local : local - 86_399) / 86_400)
            days[day, default: Day()].minutes[time] = kcal
        }
        self.days = days
        tally = counts
    }

    /// Each day's resting and active energy, oldest day first.
    func emit(tally: inout ImportTally, emit: (ImportedReading) throws -> Void) throws {
        for (day, figures) in days.sorted(by: { $0.key < $1.key }) {
            let date = Date(timeIntervalSince1970: Double(day) * 86_400)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = Self.utc
            let parts = utc.dateComponents([.year, .month, .day], from: date)
            let iso = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            guard let noon = CSVDates.timestamp(date: iso, time: "12:00", in: zone) else { continue }
            let resting = figures.lowest * Double(figures.minutes.count)
            // Rounded to 0.01 kcal: a day summed from another export's files, in another order, must come out
            // as the same figure, so as the same reading, not one beside it.
            for (kind, value) in [(ReadingKind.basalEnergy, resting), (.activeEnergy, figures.total - resting)] {
                let kcal = (max(0, value) * 100).rounded() / 100
                guard kind.saneRange.contains(kcal) else {
                    tally.skip(kind, UnitConversion.outOfRangeReason(kind))
                    continue
                }
                tally.kept[kind, default: 0] += 1
                try emit(ImportedReading(kind: kind, source: FitbitTakeout.source, timestamp: noon, value: kcal, isSpanTotal: true))
            }
        }
    }
}
