import Foundation
import HealthCore
import HealthModel

/// Fitbit's part of a Google Takeout download, as its folder or its zip (`Takeout/Fitbit/…`), found by the
/// names of its files wherever they sit (the folders above them have changed over the years):
///
/// - `Global Export Data/weight-*.json` and `fat-*.json`: weigh-ins and body fat (`FitbitWeightLogs`);
/// - `Global Export Data/calories-*.json`: resting and active energy a day (`FitbitCalorieDays`);
/// - `Global Export Data/sleep-*.json`: a reading a night with its stages (`FitbitSleepLogs`);
/// - `Daily Heart Rate Variability Summary - *.csv`: the nightly RMSSD (`FitbitHRVSummary`);
/// - `Your Profile/Profile.csv`: the unit of the weights and the time zone of the local times (`FitbitProfile`).
///
/// Everything else (steps, heart rate, the 5-minute HRV details, exercise, …) is left alone.
enum FitbitTakeout {
    static let source = "Fitbit"

    enum Family: String, CaseIterable {
        case weight, fat, calories, sleep, hrvSummary
    }

    /// The family of a file hmon reads; nil for the others.
    static func family(of file: DownloadFile) -> Family? {
        guard !file.isMacMetadata else { return nil }
        let name = file.name
        if name.hasPrefix(FitbitHRVSummary.namePrefix) && name.hasSuffix(".csv") { return .hrvSummary }
        for family in [Family.weight, .fat, .calories, .sleep] where isDatedJSON(name, family.rawValue) { return family }
        return nil
    }

    /// `weight-2026-03-14.json`: the family's name, a date, `.json`.
    private static func isDatedJSON(_ name: String, _ prefix: String) -> Bool {
        guard name.hasPrefix(prefix + "-"), name.hasSuffix(".json") else { return false }
        let date = name.dropFirst(prefix.count + 1).dropLast(5)
        return date.count == 10 && date.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") }
    }

    static func isProfile(_ file: DownloadFile) -> Bool {
        !file.isMacMetadata && file.name == FitbitProfile.fileName && file.folder == FitbitProfile.folderName
    }

    /// Whether a download holds a file hmon reads of a Fitbit export.
    static func isTakeout(_ files: [DownloadFile]) -> Bool { files.contains { family(of: $0) != nil } }

    /// Reads the download's Fitbit files; `name` is the download's, for messages. Local times are read in
    /// the profile's time zone, else in `timeZone`.
    static func read(_ files: [DownloadFile], name: String, timeZone: TimeZone, options: ImportOptions,
                     emit: @escaping (ImportedReading) throws -> Void) throws -> ImportTally {
        let profile = try files.first(where: isProfile).map { try FitbitProfile.read($0, download: name) }
        let zone = profile?.timeZone ?? timeZone
        func of(_ family: Family) -> [DownloadFile] { files.filter { self.family(of: $0) == family } }
        let weights = of(.weight)
        var tally = ImportTally()
        if !weights.isEmpty {
            guard let unit = options.weightUnit ?? profile?.weightUnit else {
                throw ImportError(file: name, problem: unknownUnit(profile))
            }
            var fat = try FitbitWeightLogs.fatLogs(of(.fat), zone: zone, download: name)
            try FitbitWeightLogs.read(weights, unit: unit, fat: &fat, zone: zone, download: name, tally: &tally, emit: emit)
            try FitbitWeightLogs.emitAlone(fat, tally: &tally, emit: emit)
        } else {
            try FitbitWeightLogs.emitAlone(try FitbitWeightLogs.fatLogs(of(.fat), zone: zone, download: name), tally: &tally, emit: emit)
        }
        for file in of(.hrvSummary) {
            try FitbitHRVSummary.read(file, zone: zone, download: name, tally: &tally, emit: emit)
        }
        var energy = FitbitCalorieDays(zone: zone)
        for file in of(.calories) {
            try energy.add(file, download: name, tally: &tally)
        }
        try energy.emit(tally: &tally, emit: emit)
        let nights = try FitbitSleepLogs.nights(of(.sleep), zone: zone, download: name)
        try SleepNightReadings.emit(nights, timeZone: zone, tally: &tally, emit: emit)
        return tally
    }

    /// Why the weights cannot be read, and what to do: Takeout writes them in the account's unit and says
    /// which only in the profile. Guessing from the figures would turn a 90 kg person into 41 kg, or 198 kg.
    private static func unknownUnit(_ profile: FitbitProfile?) -> String {
        let why = if let cell = profile?.weightUnitCell {
            "its \(FitbitProfile.folderName)/\(FitbitProfile.fileName) says weight_unit \"\(cell.prefix(20))\", which is neither METRIC (kg) nor en_US (lb)"
        } else if profile != nil {
            "its \(FitbitProfile.folderName)/\(FitbitProfile.fileName) has no weight_unit"
        } else {
            "it has no \(FitbitProfile.folderName)/\(FitbitProfile.fileName), which says"
        }
        return "the weights are in the Fitbit account's unit, and \(why): pass --weight-unit kg or --weight-unit lb, as your Fitbit app shows your weight"
    }
}
