import Foundation
import HealthModel

/// The names an import looks a source's device up by and makes it with, on both engines: the source's name
/// (unsafe characters replaced, at most 100 characters), or, when a device of another type already has that
/// name, the name qualified with the type ("Jörg's iPhone (Scale)").
public struct ImportDeviceName: Sendable, Equatable {
    public let name: String
    public let qualified: String
    /// Whether the source's name held characters that were replaced (the import report lists it).
    public let wasCleaned: Bool

    public init(source: String, type: BuiltInDeviceType) {
        let (source, replaced) = TextRules.replacingUnsafe(in: source)
        name = String(source.prefix(100))
        qualified = "\(source.prefix(80)) (\(type.deviceType.name))"
        wasCleaned = replaced > 0
    }

    /// The scale an import makes for Withings' readings when the user has none.
    public static let scale = ImportDeviceName(source: "Scale", type: .scale)
}
