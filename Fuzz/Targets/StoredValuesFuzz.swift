import Foundation
import HealthCore
import HealthModel
import HealthServer
import HMonCommandLine

/// Stored values, not parsers: a reading that got into a store (an older hmon, a copy, another program)
/// can hold any double. The builders that compute with them — the daily attributes, the insights, their
/// text and JSON, Exist's numbers — must answer for any of them, never trap.
///
/// An input is a profile byte (units, sex, height) and then readings of 10 bytes each: a day back from
/// today, a field, and the value's eight bytes as an IEEE 754 double (NaN, infinities and 1e300 included).
enum StoredValuesFuzz {
    static let fields = [Field.weight, Field.fatRatio, Field.fatFreeMass, Field.activeEnergy, Field.basalEnergy, Field.calories,
                         Field.steps, Field.restingHeartRate, Field.rmssd, Field.sdnn, Field.stress]
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func compute(_ input: [UInt8]) throws(FuzzFinding) {
        guard let first = input.first else { return }
        let profile = Profile(sex: first & 1 == 0 ? .female : .male, heightCm: 150 + Double(first >> 2),
                              massUnit: first & 2 == 0 ? .kg : .lb, energyUnit: first & 4 == 0 ? .kcal : .kJ)
        var readings: [(date: Date, data: [String: FieldValue])] = []
        var index = 1
        while index + 10 <= input.count {
            let day = Double(input[index]), field = fields[Int(input[index + 1]) % fields.count]
            let bits = input[(index + 2)..<(index + 10)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            readings.append((now.addingTimeInterval(-day * 86_400), [field: .number(Double(bitPattern: bits))]))
            index += 10
        }
        let today = Day(now, in: calendar)
        let report = InsightsReport.compute(totals: DayTotals.byDay(readings, calendar: calendar), today: today,
                                            profile: profile, calendar: calendar)
        for average in report.averages {
            _ = AverageCells.text(average.overall, average.attribute, profile)
            for value in average.weekdays.compactMap({ $0 }) { _ = AverageCells.text(value, average.attribute, profile) }
        }
        for attribute in InsightAttribute.allCases {
            for day in [today, today.adding(days: -1)] { _ = ExistRoutes.valueObject(attribute, report.daily, day) }
        }
        _ = InsightsText.lines(report)
        do {
            _ = try InsightsJSON.data(report, now: now)
        } catch {
            throw FuzzFinding("the insights' JSON could not be written: \(error)")
        }
    }
}
