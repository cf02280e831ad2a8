import Foundation
import HealthCore
import HealthModel

/// What hmon reads of a Fitbit export's `Your Profile/Profile.csv` (a header and one row): the unit the
/// account shows weights in, which is the unit its `weight-*.json` files write them in, and its time zone,
/// in which the files' local dates and times are read. Nothing else of the profile (name, e-mail, birth
/// date) is read or kept.
struct FitbitProfile: Equatable {
    static let fileName = "Profile.csv"
    static let folderName = "Your Profile"

    var weightUnit: MassUnit?
    /// The cell as written, for a message when it names no unit hmon knows.
    var weightUnitCell: String?
    var timeZone: TimeZone?

    /// `weight_unit` as Fitbit writes it: `METRIC` for kilograms, `en_US` for pounds. `en_GB` shows stones,
    /// and what Takeout then writes is not known, so it (like any other value) decides nothing.
    static func unit(_ cell: String) -> MassUnit? {
        switch cell.trimmingSpaces {
        case "METRIC": .kg
        case "en_US": .lb
        default: nil
        }
    }

    static func read(_ file: DownloadFile, download: String) throws -> FitbitProfile {
        var reader = CSVReader(delimiter: UInt8(ascii: ","))
        var header: [String]?
        var profile = FitbitProfile()
        func onRow(_ row: [String], _ line: Int) throws {
            guard let columns = header else {
                header = row.map { $0.lowercased() }
                return
            }
            func cell(_ name: String) -> String? {
                guard let index = columns.firstIndex(of: name), index < row.count else { return nil }
                let text = row[index].trimmingSpaces
                return text.isEmpty || text == "null" ? nil : text
            }
            if let unit = cell("weight_unit") {
                profile.weightUnitCell = unit
                profile.weightUnit = Self.unit(unit)
            }
            profile.timeZone = cell("timezone").flatMap(TimeZone.init(identifier:))
        }
        do {
            // The file is a few hundred bytes; a row of it may hold a quoted line break (`about_me`).
            try file.read { try reader.feed($0, onRow) }
            try reader.finish(onRow)
        } catch let problem as ImportLineProblem {
            throw ImportError(file: "\(download)/\(file.path)", line: problem.line, problem: problem.message)
        }
        return profile
    }
}
