import Foundation

/// What the server knows of each rule between runs: whether its episode is on (so it fires once per
/// episode, across restarts too), when it was last checked and sent, and the last delivery problem.
/// Kept as JSON beside the store's files (`alerts-state.json`), read by `hmon alert list`.
public struct AlertStates: Codable, Sendable, Equatable {
    public struct Rule: Codable, Sendable, Equatable {
        /// The condition held at the last check: an episode is on, and has been sent (or is being).
        public var firing = false
        public var since: Date?
        public var lastChecked: Date?
        public var lastSent: Date?
        /// The last delivery's problem, cleared by a delivery that went through.
        public var lastProblem: String?
        /// Episodes sent.
        public var sent = 0
        /// The last finding's title, for `hmon alert list`.
        public var lastTitle: String?

        public init() {}
    }

    /// Checks of all rules made by the server; a test waits on it to know a check came after a write.
    public var rounds = 0
    public var rules: [String: Rule] = [:]

    public init() {}

    /// The file's contents; empty when there is none or it cannot be read (the next check rebuilds it, and
    /// at worst a firing episode is sent again).
    public static func read(from file: URL) -> AlertStates {
        guard let data = FileManager.default.contents(atPath: file.path) else { return AlertStates() }
        return (try? Self.decoder.decode(AlertStates.self, from: data)) ?? AlertStates()
    }

    /// Writes the whole file anew and renames it into place: a reader never sees half of it. Mode 0600: it
    /// says when a person's figures went wrong.
    public func write(to file: URL) throws {
        let data = try Self.encoder.encode(self)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        guard rename(temporary.path, file.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// The server's one keeper of the rules' states: checks and deliveries (which end later, in tasks of their
/// own) change them through it, one at a time, and each change is written at once.
public actor AlertStateBook {
    public let file: URL
    public private(set) var states: AlertStates

    public init(file: URL) {
        self.file = file
        self.states = AlertStates.read(from: file)
    }

    public func update(_ change: (inout AlertStates) -> Void) throws {
        change(&states)
        try states.write(to: file)
    }
}
