import Foundation
import HealthModel

/// What the person tells `hmon import` about a file that the file cannot say itself.
public struct ImportOptions: Sendable, Equatable {
    /// The unit of a Fitbit export's weights, when its `Your Profile/Profile.csv` does not say
    /// (`--weight-unit`). When both say, this wins: the person knows what their account showed.
    public var weightUnit: MassUnit?
    /// A CSV's own names for the columns hmon reads (`--columns date=Timestamp,weight=Body Weight`).
    public var columns: [ImportColumn: String]
    /// The way the file came, kept with each reading it adds (`ReadingPath`): a file import, or a Health Auto
    /// Export post; nil for a dry run's count, which keeps nothing.
    public var path: ReadingPath?

    public init(weightUnit: MassUnit? = nil, columns: [ImportColumn: String] = [:], path: ReadingPath? = nil) {
        self.weightUnit = weightUnit
        self.columns = columns
        self.path = path
    }
}

/// A column of a weigh-in CSV that `--columns` can name.
public enum ImportColumn: String, Sendable, CaseIterable, Hashable {
    case date, time, weight, fat
}
