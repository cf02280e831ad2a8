import Foundation
import HealthModel

/// The kinds of file `hmon import` reads, recognized from their first bytes rather than their name.
public enum ImportFormat: String, Sendable, Equatable, CustomStringConvertible {
    case appleHealthZip = "Apple Health export (zip)"
    case appleHealthXML = "Apple Health export.xml"
    case withingsCSV = "Withings weight.csv"
    case openScaleCSV = "openScale CSV"
    /// A Samsung Health download's weight file (`com.samsung.health.weight.*.csv`), alone, in its folder or zipped.
    case samsungHealthCSV = "Samsung Health weight CSV"
    /// Libra's export (Android): `#Version:` and `#Units:` lines, then `#date;weight;weight trend;body fat;…`.
    case libraCSV = "Libra CSV"
    /// Any CSV of weigh-ins whose columns the person named (`hmon import --columns`).
    case namedColumnsCSV = "CSV with --columns"
    /// Fitbit's part of a Google Takeout download (its folder or zip): weigh-ins, body fat, HRV, energy, sleep.
    case fitbitTakeout = "Fitbit export (Google Takeout)"
    /// A Garmin device's FIT files: one `.fit` file, or a watch's `GARMIN/` folder (or any folder of them), as
    /// it is or zipped.
    case garminFIT = "Garmin FIT"
    /// Garmin Connect's "Export your data" archive (`DI_CONNECT/…`), its zip or its folder.
    case garminConnectExport = "Garmin Connect export"
    /// What the Health Auto Export app sends (`hmon serve`'s `/health-auto-export/…`) or saves as JSON.
    case healthAutoExportJSON = "Health Auto Export JSON"
    /// Gadgetbridge's exported SQLite database (Data management → Export database), as it is or zipped.
    case gadgetbridge = "Gadgetbridge database"
    /// `hmon export`'s own files, read back whole by `ExportReader` rather than streamed by `Importer`.
    case hmonCSV = "hmon export (CSV)"
    case hmonJSON = "hmon export (JSON)"

    public var description: String { rawValue }

    /// A CSV of weigh-ins, which `--columns` may name the columns of.
    public var isWeightCSV: Bool {
        switch self {
        case .withingsCSV, .openScaleCSV, .samsungHealthCSV, .libraCSV, .namedColumnsCSV: true
        default: false
        }
    }
}
