import Foundation

/// How a day adds up a kind's readings for the insights (`DayTotals`): the day's sum (steps, energy), the
/// mean of its readings (weight, resting heart rate), or not at all (a kind no insight reads).
public enum DayAggregate: Sendable, Equatable {
    case sum, mean, none
}

/// The sources that name kinds of reading in their own words. A source added later gets a case here and
/// a key in the kinds' `sources`; nothing else changes for the kinds it does not send.
public enum ReadingSource: String, Sendable, CaseIterable {
    /// An Apple Health export's `Record` type (`HKQuantityTypeIdentifierBodyMass`) and its `unit`.
    case appleHealth
    /// The Health Auto Export app's metric name (`weight_body_mass`) and its `units`.
    case healthAutoExport
    /// An Android app's Health Connect array (`weight`), its `units` keyed by the record's value field,
    /// which names the unit (`kilograms`, `bpm`, `watts`).
    case healthConnect
    case samsungHealth, fitbit, openScale
}

/// What one source calls a kind, and the units it sends it in, each with the factor that turns a value
/// in that unit into hmon's (`ReadingKind.importUnit`).
public struct SourceName: Sendable, Equatable {
    public var key: String
    public var units: [String: Double]
    /// Other figures of the same record kept in the same reading, by the record's key and the field they are
    /// kept in (a blood pressure's diastolic beside its systolic): one measurement stays one reading.
    public var alongside: [String: String]
    /// The record's key holding the figure, where the source names it (Health Auto Export's blood pressure,
    /// `systolic`); nil for the source's usual place (Health Auto Export's `qty`).
    public var valueKey: String?

    public init(_ key: String, units: [String: Double], valueKey: String? = nil, alongside: [String: String] = [:]) {
        self.key = key
        self.units = units
        self.valueKey = valueKey
        self.alongside = alongside
    }
}

/// What a Withings measure group calls a kind: its `meastype`, and whether Withings sends a mass (kg)
/// that hmon keeps as a percentage of the same group's weight.
public struct WithingsMeasureType: Sendable, Equatable {
    public var meastype: Int
    public var percentOfWeight: Bool

    public init(meastype: Int, percentOfWeight: Bool = false) {
        self.meastype = meastype
        self.percentOfWeight = percentOfWeight
    }
}

/// How an import counts and checks a kind: the summary's words for one and for several ("1 weight",
/// "2 weights"), the unit readings are converted to and the range a plausible one lies in (values
/// outside are skipped, not fatal).
public struct ImportedKind: Sendable, Equatable {
    public var one: String
    public var many: String
    public var unit: String
    public var range: ClosedRange<Double>

    public init(one: String, many: String? = nil, unit: String, range: ClosedRange<Double>) {
        self.one = one
        self.many = many ?? one
        self.unit = unit
        self.range = range
    }
}

/// One kind of reading, described once: the field it is stored in, how it is named, shown, checked,
/// added up per day, which insight and Exist attribute it feeds, and what each source calls it. The
/// table is `ReadingKind.allCases` (`ReadingKind+Table.swift`); everything that handles a kind reads
/// it from there, so a new kind is one entry.
public struct ReadingKind: Sendable, Hashable, Comparable, CaseIterable, Codable, RawRepresentable, CustomStringConvertible {
    /// The entry's figures, kept once and shared by every copy of the kind: a kind is copied into each reading
    /// an arrival or an import holds (489,356 of them in a 33 MB Health Connect backfill), and a struct of
    /// seventeen fields made each copy some 250 bytes (`Benchmarks/push-memory.sh`: a batch's peak RSS).
    private final class Entry: Sendable {
        let name: String
        let field: String
        let label: String
        let fieldType: FieldType
        let unit: String?
        let manifestDescription: String?
        let quantity: QuantityKind?
        let range: ClosedRange<Double>?
        let day: DayAggregate
        let insight: InsightAttribute?
        let writtenByExist: Bool
        let deviceTypes: [BuiltInDeviceType]
        let addedInSchema: Int?
        let imported: ImportedKind?
        let sources: [ReadingSource: SourceName]
        let withings: WithingsMeasureType?
        let changes: Set<ChangeKind>

        init(name: String,
             field: String,
             label: String,
             fieldType: FieldType,
             unit: String?,
             manifestDescription: String?,
             quantity: QuantityKind?,
             range: ClosedRange<Double>?,
             day: DayAggregate,
             insight: InsightAttribute?,
             writtenByExist: Bool,
             deviceTypes: [BuiltInDeviceType],
             addedInSchema: Int?,
             imported: ImportedKind?,
             sources: [ReadingSource: SourceName],
             withings: WithingsMeasureType?,
             changes: Set<ChangeKind>) {
            self.name = name
            self.field = field
            self.label = label
            self.fieldType = fieldType
            self.unit = unit
            self.manifestDescription = manifestDescription
            self.quantity = quantity
            self.range = range
            self.day = day
            self.insight = insight
            self.writtenByExist = writtenByExist
            self.deviceTypes = deviceTypes
            self.addedInSchema = addedInSchema
            self.imported = imported
            self.sources = sources
            self.withings = withings
            self.changes = changes
        }
    }

    private let entry: Entry

    /// The kind's own name, stable in JSON (`hmon import --json` counts by it).
    public var name: String { entry.name }
    /// The message field readings of this kind are stored in.
    public var field: String { entry.field }
    /// How a screen names the field ("Body fat").
    public var label: String { entry.label }
    public var fieldType: FieldType { entry.fieldType }
    /// The unit the manifest writes ("kg", "%", "b/min"); nil for counts and scores.
    public var unit: String? { entry.unit }
    /// The manifest's words for the field, when they say more than its name.
    public var manifestDescription: String? { entry.manifestDescription }
    /// How its figures are written (`QuantityText`): the units it is shown in and its decimals.
    public var quantity: QuantityKind? { entry.quantity }
    /// What `ReadingRules` accepts, in `unit`; nil where the rules hold it elsewhere (energy, HRV fields).
    public var range: ClosedRange<Double>? { entry.range }
    public var day: DayAggregate { entry.day }
    /// The insight it feeds, if any (`DailyAttributes`), and whether a value written through Exist's API
    /// for that attribute becomes a reading of this kind.
    public var insight: InsightAttribute? { entry.insight }
    public var writtenByExist: Bool { entry.writtenByExist }
    /// The built-in device types whose manifests carry the field; readings imported land on the first.
    public var deviceTypes: [BuiltInDeviceType] { entry.deviceTypes }
    /// The schema version that added the field to stored built-in manifests; nil when the built-in
    /// types had it from their first version. Both engines append the kinds of each version in a migration.
    public var addedInSchema: Int? { entry.addedInSchema }
    /// How imports count and check it; nil for a kind no import produces.
    public var imported: ImportedKind? { entry.imported }
    public var sources: [ReadingSource: SourceName] { entry.sources }
    public var withings: WithingsMeasureType? { entry.withings }
    /// What a new reading of it changes on screen, so a dashboard reloads just the screens that show it: the
    /// screens of its device types (`ChangeKind.shown(by:)`), and the others the entry names (a night's sleep
    /// is shown beside the HRV measurement of the morning after it).
    public var changes: Set<ChangeKind> { entry.changes }

    init(name: String, field: String, label: String, fieldType: FieldType = .double, unit: String?,
         manifestDescription: String? = nil, quantity: QuantityKind?, range: ClosedRange<Double>?,
         day: DayAggregate = .none, insight: InsightAttribute? = nil, writtenByExist: Bool = false,
         deviceTypes: [BuiltInDeviceType], addedInSchema: Int? = nil, imported: ImportedKind? = nil,
         sources: [ReadingSource: SourceName] = [:], withings: WithingsMeasureType? = nil, alsoChanges: Set<ChangeKind> = []) {
        entry = Entry(name: name,
                      field: field,
                      label: label,
                      fieldType: fieldType,
                      unit: unit,
                      manifestDescription: manifestDescription,
                      quantity: quantity,
                      range: range,
                      day: day,
                      insight: insight,
                      writtenByExist: writtenByExist,
                      deviceTypes: deviceTypes,
                      addedInSchema: addedInSchema,
                      imported: imported,
                      sources: sources,
                      withings: withings,
                      changes: Set(deviceTypes.map(ChangeKind.shown(by:))).union(alsoChanges))
    }

    // MARK: Identity: a kind is its name

    public var rawValue: String { name }
    public init?(rawValue: String) {
        guard let index = Self.indexByName[rawValue] else { return nil }
        self = Self.allCases[index]
    }

    /// The kind whose readings are stored in `field`; nil for a field no kind describes.
    public init?(field: String) {
        guard let index = Self.indexByField[field] else { return nil }
        self = Self.allCases[index]
    }

    public var description: String { name }
    public static func == (a: ReadingKind, b: ReadingKind) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Its place in the table: the order summaries list kinds in, and a dense index for per-kind counters.
    public var index: Int { Self.indexByName[name]! }
    public static func < (a: ReadingKind, b: ReadingKind) -> Bool { a.index < b.index }

    private static let indexByName = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1.name, $0) })
    private static let indexByField = Dictionary(allCases.enumerated().map { ($1.field, $0) }, uniquingKeysWith: { a, _ in a })

    // MARK: What follows from the entry

    /// The manifest field of the kind.
    public var fieldSpec: FieldSpec {
        FieldSpec(name: field, type: fieldType, unit: unit, description: manifestDescription)
    }

    /// The unit a range refusal names: the manifest's, or the field itself for a count ("steps").
    public var rangeUnit: String { unit ?? field }

    /// The kinds a day adds up, in table order: `DayTotals` keeps one sum and count per kind, in this order.
    public static let daySlots: [ReadingKind] = allCases.filter { $0.day != .none }

    /// The kind's position in `daySlots`; nil for a kind a day does not add up.
    public var daySlot: Int? { Self.daySlotByName[name] }
    private static let daySlotByName = Dictionary(uniqueKeysWithValues: daySlots.enumerated().map { ($1.name, $0) })

    /// The kinds added to built-in manifests by schema `version`, for the migration that appends them.
    public static func added(inSchema version: Int) -> [ReadingKind] {
        allCases.filter { $0.addedInSchema == version }
    }

    /// The schema versions after `version` that add kinds, ascending: each engine makes one migration of each.
    public static func schemaVersionsAddingKinds(after version: Int) -> [Int] {
        Set(allCases.compactMap(\.addedInSchema)).filter { $0 > version }.sorted()
    }

    /// The kind an Apple Health `Record` type or another source's key stands for.
    public static func named(_ key: String, by source: ReadingSource) -> ReadingKind? {
        allCases.first { $0.sources[source]?.key == key }
    }

    /// The kind a Withings `meastype` stands for.
    public static func withings(meastype: Int) -> ReadingKind? {
        allCases.first { $0.withings?.meastype == meastype }
    }

    // MARK: Codable: by name

    public init(from decoder: Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let kind = ReadingKind(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no kind of reading \"\(name)\""))
        }
        self = kind
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
