/// The parts of hmon that read input from outside, each as one function that takes one input's bytes.
///
/// libFuzzer calls them through `hmon-fuzz` built with `-sanitize=fuzzer` (see `Fuzz/fuzz.sh`), and
/// `swift test` replays every input kept in `Fuzz/Corpus/<target>/` through the same functions, so an
/// input that once broke hmon stays a test after the fix.
///
/// A crash is a finding by itself; `FuzzFinding` is for inputs that break a promise without crashing
/// (an import failing with something other than a located `ImportError`, the server answering 500).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The Apple Health XML scanner and its tag handler, through `Importer.read` on a file.
    case xml
    /// The CSV reader and the weight-CSV importer, through `Importer.read` on a file.
    case csv
    /// Theme files (`Themes/*.theme`, `~/.config/hmon/themes`).
    case theme
    /// What a terminal sends as keys: decoded, typed into a prompt's text field, drawn into a frame.
    case keys
    /// The server's request decoding: a request sent over loopback to a real `hmon serve` in this process.
    case server
    /// Stored values of any double through the insights, their text and JSON, and Exist's numbers.
    case stored
    /// hmon's own export read back (`ExportReader`): the JSON array split into rows, and the CSV.
    case export
    /// Withings' `getmeas` answer body, decoded and turned into weigh-ins (`WithingsWeighIns`).
    case withings
    /// A Health Auto Export payload, through `Importer.read` as the server reads a posted one.
    case hae
    /// The change feed's life: feeds opened and dropped, readings posted, tokens revoked, signed out,
    /// replaced by a password change or expired, against a real server in this process.
    case feeds
    /// A Health Connect payload (Life Dashboard Companion's or HC Webhook's), through `HealthConnectPayload`.
    case healthconnect
    /// An openScale-sync webhook event, through `OpenScaleEvent`.
    case openscale
    /// A page of Oura sleep documents, through `OuraNights`.
    case oura
    /// A Garmin FIT file, through `Importer.read` (the FIT decoder and the Garmin importer).
    case fit
    /// A JSON file of Garmin Connect's export (weigh-ins, nights or days), in an unzipped export's folder,
    /// through `Importer.read`.
    case garminconnect

    /// Sets up what the target needs once per process (a scratch folder; the server and its store).
    public func prepare() throws {
        switch self {
        case .xml, .csv, .export, .hae, .fit, .garminconnect: try ImportFuzz.prepare()
        case .server: try ServerFuzz.shared.prepare()
        case .feeds: try FeedLifecycleFuzz.shared.prepare()
        case .theme, .keys, .stored, .withings, .healthconnect, .openscale, .oura: break
        }
    }

    /// Runs one input. Throws a `FuzzFinding` when hmon broke a promise on it.
    public func run(_ input: [UInt8]) throws(FuzzFinding) {
        switch self {
        case .xml: try ImportFuzz.readXML(input)
        case .csv: try ImportFuzz.readCSV(input)
        case .theme: try ThemeFuzz.parse(input)
        case .keys: try KeyFuzz.type(input)
        case .server: try ServerFuzz.shared.send(input)
        case .stored: try StoredValuesFuzz.compute(input)
        case .export: try ImportFuzz.readExport(input)
        case .withings: try WithingsFuzz.decode(input)
        case .hae: try HealthAutoExportFuzz.read(input)
        case .feeds: try FeedLifecycleFuzz.shared.run(input)
        case .healthconnect: try PushDecoderFuzz.healthConnect(input)
        case .openscale: try PushDecoderFuzz.openScale(input)
        case .oura: try PushDecoderFuzz.oura(input)
        case .fit: try ImportFuzz.readFIT(input)
        case .garminconnect: try ImportFuzz.readGarminConnect(input)
        }
    }
}

/// An input on which hmon broke a promise without crashing.
public struct FuzzFinding: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
