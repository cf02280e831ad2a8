import Foundation

/// A kind of device ("Withings Device") and the fields its messages carry.
public struct DeviceType: Codable, Sendable, Equatable, Identifiable {
    /// `dt…`, e.g. the Withings type `dt29673f0481b4401bb73a622353b96150`.
    public var id: String
    public var name: String
    public var uniqueName: String
    public var description: String?
    public var latestVersion: Int

    public init(id: String, name: String, uniqueName: String, description: String? = nil, latestVersion: Int = 1) {
        self.id = id
        self.name = name
        self.uniqueName = uniqueName
        self.description = description
        self.latestVersion = latestVersion
    }
}

/// The type of one manifest field.
public enum FieldType: String, Codable, Sendable {
    case double = "Double", integer = "Integer", string = "String"
}

/// One field of a manifest: `weight` is a Double in `kg`.
public struct FieldSpec: Codable, Sendable, Equatable {
    public var name: String
    public var type: FieldType
    /// The unit as the manifest writes it ("kg", "kcal", "b/min"); nil for unitless fields.
    public var unit: String?
    public var description: String

    public init(name: String, type: FieldType, unit: String?, description: String? = nil) {
        self.name = name
        self.type = type
        self.unit = unit
        self.description = description ?? name
    }
}

/// The fields a device type's messages carry, in a stable order.
public struct Manifest: Codable, Sendable, Equatable {
    public var fields: [FieldSpec]

    public init(fields: [FieldSpec]) { self.fields = fields }

    public func field(_ name: String) -> FieldSpec? { fields.first { $0.name == name } }

    /// Whether messages of this type can carry a weight (the "See weight" rule of the ancestor app).
    public var hasWeight: Bool { field(Field.weight) != nil }
    /// The field a device's "latest reading" must carry: a scale's latest reading is its latest weight
    /// (a reading with only a body-fat figure is not what the devices screen should show); nil for any.
    public var latestReadingField: String? { hasWeight ? Field.weight : nil }
}

/// Field names hmon itself reads. Other fields are stored and shown, never interpreted.
public enum Field {
    public static let weight = "weight"
    public static let calories = "calories"            // consumed energy, kcal
    public static let activeEnergy = "activeEnergy"    // kcal
    public static let basalEnergy = "basalEnergy"      // recorded resting energy, kcal
    public static let heartRateVariabilitySDNN = "hrvSDNN"  // ms
    public static let height = "height"
}
