import Foundation
import HealthCore
import HealthModel
import CheckedNumbers

/// Weigh-ins from a scale app's CSV export: Withings' `weight.csv`, openScale's export (current
/// `DATE,TIME,…,WEIGHT,…` and older `"dateTime","weight",…`) or a Samsung Health download's weight file
/// (`start_time,…,weight,…,body_fat,…`, below a line naming the file) or Libra's export (`#date;weight;weight
/// trend;body fat;…`, below `#Version:` and `#Units:` lines), told apart by the header row.
struct CSVWeightImporter {
    enum Layout: String, Sendable {
        case withings = "Withings weight.csv"
        case openScale = "openScale CSV"
        case openScaleLegacy = "openScale CSV (older)"
        case samsungHealth = "Samsung Health weight CSV"
        case libra = "Libra CSV"
        /// Any CSV, its columns named by the person (`hmon import --columns date=Timestamp,weight=Body Weight`).
        case namedColumns = "CSV with --columns"
    }

    /// The first line of a Samsung Health CSV, above its header: the data type, the app's version, the
    /// schema's ("com.samsung.health.weight,6305010,2").
    static let samsungWeightLine = "com.samsung.health.weight"

    let layout: Layout
    private let header: [String]
    private let dateColumn: Int
    private let timeColumn: Int?
    private let weightColumn: Int
    /// kg per unit of the weight column (Withings may export in lb).
    private let weightFactor: Double
    private let fatMassColumn: Int?      // Withings, kg
    private let fatPercentColumn: Int?   // openScale, %
    private let muscleMassColumn: Int?   // Withings, kg
    private let musclePercentColumn: Int? // openScale, %
    /// openScale's columns of the kinds the table names for it (`ReadingSource.openScale`).
    private let kindColumns: [(column: Int, kind: ReadingKind, factor: Double)]
    private let timeZone: TimeZone

    /// Recognizes the header; nil when it is none of the layouts.
    /// `poundsDeclared`: the file said above its header that it writes pounds (Libra's `#Units: lb`).
    init?(header: [String], timeZone: TimeZone, poundsDeclared: Bool = false) {
        // Newer Samsung Health downloads name each column after its type too ("com.samsung.health.weight.weight").
        let lower = header.map { name in
            let name = name.lowercased()
            return name.hasPrefix(Self.samsungWeightLine + ".") ? String(name.dropFirst(Self.samsungWeightLine.count + 1)) : name
        }
        func column(_ names: String...) -> Int? { lower.firstIndex { names.contains($0) } }
        self.header = header
        // Samsung writes the time in UTC, and the local offset beside it (`time_offset`).
        self.timeZone = lower.contains("start_time") ? TimeZone(identifier: "UTC")! : timeZone
        if lower.first == "date", let weight = lower.firstIndex(where: { $0.hasPrefix("weight (") }) {
            layout = .withings
            dateColumn = 0
            timeColumn = nil
            weightColumn = weight
            weightFactor = lower[weight].contains("(lb") ? MassUnit.kgPerPound : 1
            let massUnitIsKg = weightFactor == 1
            fatMassColumn = massUnitIsKg ? column("fat mass (kg)") : nil
            muscleMassColumn = massUnitIsKg ? column("muscle mass (kg)") : nil
            fatPercentColumn = nil
            musclePercentColumn = nil
            kindColumns = []
        } else if let date = column("date"), let weight = column("weight"), column("weight trend") != nil {
            // Libra writes its own trend beside each weigh-in; hmon computes its own.
            layout = .libra
            dateColumn = date
            timeColumn = nil
            weightColumn = weight
            weightFactor = poundsDeclared ? MassUnit.kgPerPound : 1
            fatMassColumn = nil
            muscleMassColumn = nil
            fatPercentColumn = column("body fat")
            musclePercentColumn = nil
            kindColumns = []
        } else if let date = column("date"), let weight = column("weight") {
            layout = .openScale
            dateColumn = date
            timeColumn = column("time")
            weightColumn = weight
            weightFactor = 1
            fatMassColumn = nil
            muscleMassColumn = nil
            fatPercentColumn = column("fat")
            musclePercentColumn = column("muscle")
            kindColumns = Self.columns(of: .openScale, in: lower)
        } else if let start = column("start_time"), let weight = column("weight") {
            layout = .samsungHealth
            dateColumn = start
            timeColumn = nil
            weightColumn = weight
            weightFactor = 1
            fatMassColumn = nil
            muscleMassColumn = nil
            fatPercentColumn = nil
            musclePercentColumn = nil
            kindColumns = Self.columns(of: .samsungHealth, in: lower)
        } else if let date = column("datetime"), let weight = column("weight") {
            layout = .openScaleLegacy
            dateColumn = date
            timeColumn = nil
            weightColumn = weight
            weightFactor = 1
            fatMassColumn = nil
            muscleMassColumn = nil
            fatPercentColumn = column("fat")
            musclePercentColumn = column("muscle")
            kindColumns = Self.columns(of: .openScale, in: lower)
        } else {
            return nil
        }
    }

    /// A CSV whose columns the person named (`ImportOptions.columns`); a column not named is looked for under
    /// its own name (`date`, `time`, `weight`, `fat`, in any case). Throws, naming the header's line, when the
    /// date or the weight column is not in the header. Weights are in kg, or in lb with `pounds`.
    init(header: [String], columns: [ImportColumn: String], pounds: Bool, timeZone: TimeZone, line: Int) throws {
        let names = header.map { $0.trimmingSpaces.lowercased() }
        func column(_ which: ImportColumn) -> Int? { names.firstIndex(of: (columns[which] ?? which.rawValue).trimmingSpaces.lowercased()) }
        func missing(_ which: ImportColumn) -> ImportLineProblem {
            let shown = header.prefix(12).map { "\"\($0.prefix(40))\"" }.joined(separator: ", ") + (header.count > 12 ? ", …" : "")
            let named = columns[which].map { "\"\($0.prefix(40))\" (--columns \(which.rawValue)=…)" } ?? "\"\(which.rawValue)\""
            return ImportLineProblem(line: line, message: "no \(which.rawValue) column \(named) in the header, which has \(shown): name it with --columns \(which.rawValue)=NAME")
        }
        for which in columns.keys.sorted(by: { $0.rawValue < $1.rawValue }) where column(which) == nil { throw missing(which) }
        guard let date = column(.date) else { throw missing(.date) }
        guard let weight = column(.weight) else { throw missing(.weight) }
        layout = .namedColumns
        self.header = header
        self.timeZone = timeZone
        dateColumn = date
        timeColumn = column(.time)
        weightColumn = weight
        weightFactor = pounds ? MassUnit.kgPerPound : 1
        fatMassColumn = nil
        fatPercentColumn = column(.fat)
        muscleMassColumn = nil
        musclePercentColumn = nil
        kindColumns = []
    }

    /// The columns of `header` (lower-cased) the kinds' table names for `source`, which writes no units: each
    /// kind's one unit is the one the source uses.
    private static func columns(of source: ReadingSource, in header: [String]) -> [(column: Int, kind: ReadingKind, factor: Double)] {
        ReadingKind.allCases.compactMap { kind in
            guard let name = kind.sources[source], let factor = name.units.values.first,
                  let column = header.firstIndex(of: name.key.lowercased()) else { return nil }
            return (column, kind, factor)
        }
    }

    var sourceName: String {
        switch layout {
        case .withings: "Withings"
        case .openScale, .openScaleLegacy: "openScale"
        case .samsungHealth: "Samsung Health"
        case .libra: "Libra"
        case .namedColumns: "CSV"
        }
    }

    /// Reads one data row; throws `ImportLineProblem` for a bad number or date, skips implausible values.
    func reading(from row: [String], line: Int, tally: inout ImportTally) throws -> ImportedReading? {
        func cell(_ column: Int?) -> String? {
            guard let column, column < row.count else { return nil }
            let text = row[column].trimmingSpaces
            return text.isEmpty ? nil : text
        }
        func number(_ column: Int?) throws -> Double? {
            guard let text = cell(column) else { return nil }
            // Some locales write a decimal comma inside a quoted field.
            let normalized = text.contains(".") ? text : text.replacingOccurrences(of: ",", with: ".")
            guard let value = Array(normalized.utf8).withUnsafeBufferPointer(ByteParsing.double) else {
                throw ImportLineProblem(line: line, message: "bad number \"\(text)\" in column \"\(header[column!])\"")
            }
            return value
        }
        guard let dateText = cell(dateColumn) else {
            throw ImportLineProblem(line: line, message: "no date in column \"\(header[dateColumn])\"")
        }
        let timeText = cell(timeColumn)
        guard let timestamp = CSVDates.timestamp(date: dateText, time: timeText, in: timeZone)
                ?? CSVDates.instant(dateText) else {
            let shown = timeText.map { "\(dateText) \($0)" } ?? dateText
            throw ImportLineProblem(line: line, message: "bad date \"\(shown)\" in column \"\(header[dateColumn])\" (expected like 2024-01-15 07:30)")
        }
        guard let rawWeight = try number(weightColumn) else {
            tally.skip("row without a weight")
            return nil
        }
        let weight = rawWeight * weightFactor
        guard ReadingKind.weight.saneRange.contains(weight) else {
            tally.skip(UnitConversion.outOfRangeReason(.weight))
            return nil
        }
        var extras: [String: Double] = [:]
        if let fatMass = try number(fatMassColumn), fatMass > 0, fatMass < weight {
            extras[ReadingKind.bodyFat.field] = fatMass / weight * 100
        }
        if let fat = try number(fatPercentColumn), fat > 0, fat < 100 { extras[ReadingKind.bodyFat.field] = fat }
        if let muscle = try number(muscleMassColumn), muscle > 0, muscle < weight { extras[ReadingKind.muscleMass.field] = muscle }
        if let muscle = try number(musclePercentColumn), muscle > 0, muscle < 100 { extras[ReadingKind.muscleMass.field] = weight * muscle / 100 }
        for (column, kind, factor) in kindColumns {
            // openScale writes 0 for what the scale did not measure.
            if let value = try number(column).map({ $0 * factor }), value > 0, kind.range?.contains(value) ?? true {
                extras[kind.field] = value
            }
        }
        tally.kept[.weight, default: 0] += 1
        return ImportedReading(kind: .weight, source: sourceName, timestamp: timestamp, value: weight, extras: extras)
    }
}

/// The local date-times scale apps write: `2024-01-15`, `2024-01-15 07:30`, `2024-01-15T07:30:00`,
/// with the time optionally in a column of its own; and instants with their offset (`2018-01-19T17:53:00.000Z`,
/// `2026-09-20T08:00:00.000+02:00`), as Libra writes them.
enum CSVDates {
    /// An ISO 8601 instant: a local date-time followed by `Z` or an offset (`+02:00`, `-0500`).
    static func instant(_ text: String) -> Int64? {
        guard let split = text.firstIndex(where: { $0 == "T" || $0 == " " }) else { return nil }
        let time = text[text.index(after: split)...]
        var local = String(text[..<split]) + " "
        var offsetSeconds = 0
        if time.hasSuffix("Z") {
            local += time.dropLast()
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let digits = time[time.index(after: sign)...].filter(\.isNumber)
            guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)),
                  hours < 24, minutes < 60 else { return nil }
            offsetSeconds = (time[sign] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            local += time[..<sign]
        } else {
            return nil
        }
        guard let utc = timestamp(date: local.trimmingCharacters(in: .whitespaces), time: nil, in: TimeZone(identifier: "UTC")!)
        else { return nil }
        return utc - Int64(offsetSeconds) * 1000
    }

    static func timestamp(date: String, time: String?, in timeZone: TimeZone) -> Int64? {
        var dateText = Substring(date)
        var timeText = time.map { Substring($0) }
        if let split = date.firstIndex(where: { $0 == " " || $0 == "T" }) {
            dateText = date[..<split]
            timeText = date[date.index(after: split)...]
        }
        let day = Array(dateText.utf8).withUnsafeBufferPointer(ByteParsing.isoDay)
        guard let day, let days = ByteParsing.daysSinceEpoch(year: day.year, month: day.month, day: day.day) else { return nil }
        var secondsOfDay = 0
        if let timeText {
            let parts = timeText.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count),
                  let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
            else { return nil }
            var second = 0.0
            if parts.count == 3 {
                guard let s = NumberText.decimal(parts[2]), (0..<61).contains(s) else { return nil }
                second = s
            }
            secondsOfDay = hour * 3600 + minute * 60 + Int(rounding: second, .towardZero)
        }
        let local = days * 86_400 + secondsOfDay
        // The offset at the local time itself, found in two steps so DST changes land right.
        var utc = local - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local)))
        utc = local - timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc)))
        return Int64(utc) * 1000
    }
}
