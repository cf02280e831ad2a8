import Foundation

/// The way a reading reached hmon: the link or the file that brought it. One measurement that arrives by two
/// ways (openScale writes to Health Connect as well as to its own webhook) is counted once, by the way its
/// family's source order puts first (`SourceOrder`); the other is kept aside, never lost.
public enum ReadingPath: String, Sendable, CaseIterable, Codable {
    case openScale = "openscale"
    case withings
    case oura
    case healthConnect = "health-connect"
    case healthAutoExport = "health-auto-export"
    case imported = "import"

    /// The name people know it by.
    public var label: String {
        switch self {
        case .openScale: "openScale"
        case .withings: "Withings"
        case .oura: "Oura"
        case .healthConnect: "Health Connect"
        case .healthAutoExport: "Health Auto Export"
        case .imported: "a file import"
        }
    }

    /// The families of measurements that come this way: a device's own link brings what the device measures,
    /// a phone hub and a file any of them.
    public var brings: Set<MeasurementFamily> {
        switch self {
        case .openScale, .withings: [.weight]
        case .oura: [.sleep]
        case .healthConnect, .healthAutoExport, .imported: Set(MeasurementFamily.allCases)
        }
    }

    /// The default order, as Apple Health's Data Sources list starts: a device's own direct link first (it
    /// has the measurement first-hand, with the device's own figures), then a phone hub (it relays what the
    /// device's app wrote to it, sometimes rounded or without the device's name), then a file import (a
    /// copy of either, made later).
    public static let defaultOrder: [ReadingPath] = [.openScale, .withings, .oura, .healthConnect, .healthAutoExport, .imported]
}

/// The order in which one family's readings from different ways are counted: the default, with a person's
/// preferred way moved to the front (`hmon sources prefer KIND SOURCE`).
public struct SourceOrder: Sendable, Equatable {
    public var preferred: ReadingPath?

    public init(preferred: ReadingPath? = nil) {
        self.preferred = preferred
    }

    public var paths: [ReadingPath] {
        guard let preferred else { return ReadingPath.defaultOrder }
        return [preferred] + ReadingPath.defaultOrder.filter { $0 != preferred }
    }

    /// A path's place: lower is counted first.
    public func rank(_ path: ReadingPath) -> Int {
        paths.firstIndex(of: path) ?? paths.count
    }
}
