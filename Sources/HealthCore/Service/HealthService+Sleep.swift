import Foundation
import HealthModel

extension HealthService {
    /// The nights stored for `days` (each read in `calendar`'s zone), one a day, with their window and stages
    /// where kept: the readings of time asleep and of time in bed alone, named by their source or device.
    public func sleepNights(days: ClosedRange<Day>, calendar: Calendar) async throws -> [SleepNight] {
        // A night belongs to the day it ends plus six hours: its reading lies from 18:00 the day before.
        let from = days.lowerBound.start(in: calendar).addingTimeInterval(-Double(24 - SleepNights.dayTurnsAtHour) * 3600)
        let to = days.upperBound.adding(days: 1).start(in: calendar).addingTimeInterval(-Double(24 - SleepNights.dayTurnsAtHour) * 3600)
        var readings: [Message] = []
        for field in [ReadingKind.sleep.field, ReadingKind.timeInBed.field] {
            readings += try await self.readings(ReadingsQuery(from: from.millisecondsSince1970, to: to.millisecondsSince1970,
                                                              field: field, order: .asc))
        }
        let names = Dictionary(try await devices().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        let nights = readings.compactMap { reading -> SleepNight? in
            guard seen.insert(reading.mid).inserted else { return nil }
            return SleepNight(reading: reading, device: names[reading.sdid] ?? "", calendar: calendar)
        }
        return SleepNight.onePerDay(nights.filter { days.contains($0.day) })
    }

    /// The sleep report from the single calls: the nights of the 90 days before (or of `days`, when more),
    /// for the regularity, debt and consistency, and the list cut to `days`.
    public func sleepReportFromCalls(_ ask: SleepReportAsk) async throws -> SleepReport {
        let (through, days, calendar) = (ask.through, ask.days, ask.calendar)
        let needMinutes: Double
        if let asked = ask.needMinutes { needMinutes = asked } else { needMinutes = try await profile().sleepNeed }
        let read = max(days, SleepReport.chartDays)
        let nights = try await sleepNights(days: through.adding(days: -(read - 1))...through, calendar: calendar)
        var report = SleepReport(nights: nights, through: through, needMinutes: needMinutes, calendar: calendar)
        let first = through.adding(days: -(days - 1))
        report.nights = report.nights.filter { $0.day >= first }
        return report
    }
}

/// What a sleep report is asked for: the `days` days ending on `through`, in `calendar`'s zone, against a need.
public struct SleepReportAsk: Sendable, Equatable {
    public var through: Day
    public var days: Int
    /// Minutes a night; nil: the person's own, from their profile (8 hours when they set none).
    public var needMinutes: Double?
    public var calendar: Calendar

    /// The most days one report lists.
    public static let maxDays = 366

    public init(through: Day, days: Int, needMinutes: Double? = nil, calendar: Calendar) {
        self.through = through
        self.days = min(max(1, days), Self.maxDays)
        self.needMinutes = needMinutes
        self.calendar = calendar
    }
}
