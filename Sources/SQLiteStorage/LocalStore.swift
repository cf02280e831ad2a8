import Foundation
import CheckedNumbers
import HealthCore
import HealthModel
import GRDB
import Synchronization
#if canImport(Glibc)
import Glibc
private let readBytes = Glibc.read
#else
import Darwin
private let readBytes = Darwin.read
#endif

/// The embedded store: one SQLite file (WAL, foreign keys, versioned migrations) shared by every hmon
/// process on the machine — the dashboard, the command line and the REST server.
///
/// Its operations are user-agnostic and take a user id explicitly, because the server serves many
/// users from one store; `LocalHealthService` is the per-user view the faces use. Other parts of
/// HealthCore (the importer, the server's helpers) add their own extension files over `writer`.
public final class LocalStore: Sendable {
    /// The database file.
    public let url: URL
    public var path: String { url.path }
    /// The cost of new password hashes (verification reads the cost stored with each hash).
    public let passwordHasher: PasswordHasher
    /// How the store was opened: `.readOnly` stores never write, migrate or create anything.
    public let access: StoreAccess
    /// How a `.readOnly` store reaches its file so that reading leaves no trace (nil for the others).
    let readOnlyOpening: ReadOnlyOpening?
    /// Whether opening made a new store (only `.create` does), so the command can say so.
    public let wasCreated: Bool
    /// How long a write waits for another connection's write lock.
    public let patience: WriterPatience

    /// The connections. A store that may write: a pool (one writer, concurrent readers). A `.readOnly`
    /// store: one connection (a `DatabaseQueue`), all a command that shows data or `hmon snapshot`
    /// needs; a pool would open a writer and a reader per concurrent read, each paying SQLite's open and
    /// schema parse on the launch's critical path. Write through `write(_:)` so the change token counts
    /// the write.
    package let writer: any DatabaseWriter
    /// The connection `changeToken()` reads `PRAGMA data_version` on. That pragma is per connection and
    /// changes only for commits made by *other* connections, so it must always be read on the same one —
    /// never on the pool, which hands out whichever reader is free. A store that may write opens one of
    /// its own at the first `changeToken()` (most commands never ask; the dashboard first asks after its
    /// first frame), which misses nothing: a token only means something against a later token from the
    /// same connection. A `.readOnly` store's one connection never commits, so every commit it can see is
    /// another connection's, and it answers the pragma itself.
    private let versionConnection: Mutex<DatabaseQueue?>
    /// Writes made through this store object (belt and braces next to `data_version`).
    private let ownWrites = Atomic<Int64>(0)
    /// Where `write` sends its transactions.
    let groupCommit: GroupCommit

    /// Opens the store at `url` as `access` says: `.create` makes it (and its folder) when absent and
    /// brings its schema up to date; `.readWrite` needs an hmon store already there and brings it up to
    /// date; `.readOnly` needs one that is up to date and never writes a byte (WAL readers do not wait
    /// for a writer). Throws `HealthError.unusableStore` naming the file and what is wrong with it
    /// (`.noStore` for a missing or empty file when the store may not be created).
    ///
    /// A write that finds another connection holding the write lock waits up to `patience.limit`
    /// (telling `patience.notice` once when the wait is long enough to notice), then throws
    /// `HealthError.storeBusy`.
    public init(url: URL, access: StoreAccess = .create, passwordHasher: PasswordHasher = .strong,
                footprint: StoreFootprint = .standard, patience: WriterPatience = .standard) throws {
        let url = url.standardizedFileURL
        self.url = url
        self.passwordHasher = passwordHasher
        self.access = access
        self.patience = patience
        let path = url.path
        if access == .create {
            wasCreated = try Self.prepareFile(at: url)
        } else {
            try Self.checkExistingStore(at: url)
            wasCreated = false
        }

        let readOnlyOpening = access == .readOnly ? ReadOnlyOpening.choose(path: path) : nil
        self.readOnlyOpening = readOnlyOpening
        var configuration = Configuration()
        configuration.label = "hmon"
        configuration.readonly = false
        readOnlyOpening?.configure(&configuration)
        configuration.foreignKeysEnabled = true
        // Another process (the command line next to the dashboard, a long import) may hold the write lock.
        configuration.busyMode = patience.busyMode(path: path)
        configuration.maximumReaderCount = max(1, footprint.readers)
        let cacheKiB = max(64, footprint.cacheKiB)
        configuration.prepareDatabase { db in
            // Safe with WAL: a power cut may lose the last commits, never corrupt the file.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
        }
        do {
            writer = try Self.openConnections(path: path, configuration: configuration, readOnlyOpening: readOnlyOpening,
                                              patience: patience)
            versionConnection = Mutex(writer as? DatabaseQueue)
            groupCommit = GroupCommit(writer: writer)
            // One read answers everything opening needs to know; the migrator's write transaction runs
            // only when there is something to migrate, so a launch on an up-to-date store never waits
            // for the write lock.
            let migrator = Schema.migrator
            let state = try writer.read { db in
                (superseded: try migrator.hasBeenSuperseded(db),
                 complete: try migrator.hasCompletedMigrations(db),
                 applicationID: try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                 schemaObjects: try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0)
            }
            if state.superseded {
                throw HealthError.unusableStore(UnusableStore(path: path, reason: .writtenByNewerHmon))
            }
            // The header check in `prepareFile` cannot see a schema still in another process's WAL.
            guard Schema.accepts(applicationID: state.applicationID, hasSchema: state.schemaObjects > 0) else {
                throw Self.anotherProgramsFile(path)
            }
            // An SQLite file with nothing in it yet is a store only for a command that may make one.
            if access != .create && state.schemaObjects == 0 {
                throw HealthError.unusableStore(UnusableStore(path: path, reason: .noStore))
            }
            if !state.complete {
                // A reader never migrates: the file may be someone else's copy, read-only, or in use.
                if access == .readOnly {
                    throw HealthError.unusableStore(UnusableStore(path: path, reason: .olderLayout))
                }
                try migrator.migrate(writer)
            }
        } catch let error as DatabaseError where readOnlyOpening == .sharedReadOnly && error.resultCode == .SQLITE_CANTOPEN {
            // SQLite shares a live WAL through the -shm file, which it may neither find nor make here.
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .notPermitted(
                detail: "a writer's journal \(path)-wal lies beside it and its folder cannot be written, so it cannot be read "
                    + "alongside that writer; let the writer finish, or copy the store where you may write")))
        } catch {
            throw Self.openingError(error, path: path, patience: patience)
        }
    }

    /// A value that changes whenever a commit lands in the file, from this process or another one.
    /// Costs one pragma on a dedicated connection: cheap enough to poll every second.
    public func changeToken() throws -> Int64 {
        do {
            let version = try versionConnection.withLock { connection in
                let opened = try connection ?? openVersionConnection()
                connection = opened
                return try opened.inDatabase { db in
                    try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                }
            }
            // Both terms only ever grow, so their sum changes whenever either does.
            return version &+ ownWrites.load(ordering: .acquiring)
        } catch {
            throw mapped(error)
        }
    }

    private func openVersionConnection() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "hmon.data_version"
        configuration.busyMode = patience.busyMode(path: path)
        readOnlyOpening?.configure(&configuration)
        return try DatabaseQueue(path: readOnlyOpening?.filename(for: path) ?? path, configuration: configuration)
    }

    // MARK: Access for the extension files

    /// Runs `updates` in a write transaction, which it may share with writes made at the same time
    /// (`GroupCommit`): returns once it is committed. Maps database errors to `HealthError` and counts the write.
    package func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try refuseIfOpenedToRead()
        do {
            let result = try await groupCommit.write(updates)
            ownWrites.add(1, ordering: .releasing)
            return result
        } catch {
            throw mapped(error)
        }
    }

    /// A store opened to read writes nothing, whichever way its connection was opened (`ReadOnlyOpening`).
    package func refuseIfOpenedToRead() throws {
        if readOnlyOpening != nil { throw HealthError.unusableStore(UnusableStore(path: path, reason: .readOnly)) }
    }

    /// Runs `value` in a read transaction (a consistent snapshot); maps database errors to `HealthError`.
    package func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(value)
        } catch {
            throw mapped(error)
        }
    }

    /// A `HealthError` for any error a database call threw.
    package func mapped(_ error: any Error) -> HealthError {
        if let health = error as? HealthError { return health }
        if let database = error as? DatabaseError {
            switch database.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return Self.busy(path, patience: patience)
            case .SQLITE_READONLY:
                return .unusableStore(UnusableStore(path: path, reason: .readOnly))
            case .SQLITE_FULL:
                return .storeUnavailable("the disk holding \(path) is full: free some space")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return .unusableStore(UnusableStore(path: path, reason: .damaged(detail: database.message ?? "corrupt")))
            default:
                return .storeUnavailable("database error in \(path): \(database.message ?? database.description)")
            }
        }
        return .storeUnavailable("database error in \(path): \(error)")
    }

    // MARK: Opening

    /// For a store that may not be created: the file must be there, not empty, and an hmon store (or
    /// an SQLite file whose schema may still be in another process's WAL: opening then checks it has one).
    private static func checkExistingStore(at url: URL) throws {
        let path = url.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .noStore))
        }
        if isFolder.boolValue { throw HealthError.unusableStore(UnusableStore(path: path, reason: .isAFolder)) }
        if try checkIsHmonStore(path) == .noBytes {
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .noStore))
        }
    }

    /// Creates the parent folder and, for a new store, an empty file readable only by its owner
    /// (health data is personal; SQLite gives the -wal and -shm files the same mode). An existing
    /// file must already be an hmon store or an empty SQLite database: a foreign file is never touched.
    /// Returns whether the file is new (or was empty).
    private static func prepareFile(at url: URL) throws -> Bool {
        let path = url.path
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .cannotCreateFolder(folder: folder.path, detail: reason(error))))
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                throw HealthError.unusableStore(UnusableStore(path: path, reason: .isAFolder))
            }
            return try checkIsHmonStore(path) == .noBytes
        } else {
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
                return true
            } else if errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw HealthError.unusableStore(UnusableStore(path: path, reason: .cannotCreate(detail: reason)))
            }
            return false
        }
    }

    /// What the header says: a zero-byte file, or an SQLite file hmon may use.
    private enum Header { case noBytes, sqlite }

    /// Reads the file's 100-byte SQLite header (https://sqlite.org/fileformat.html): an hmon store
    /// carries our `application_id` (offset 68); an empty file or an SQLite file with no schema yet
    /// (schema cookie, offset 40, still 0) is welcome too. Reading the bytes, rather than opening a
    /// connection to ask, keeps this check off the launch's critical path; it must come before the
    /// pool opens, because opening switches the file to WAL, and a foreign file is never touched.
    private static func checkIsHmonStore(_ path: String) throws -> Header {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .notPermitted(detail: reason)))
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, 100) }
        if count == 0 { return .noBytes }
        guard count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .notSQLite))
        }
        func bigEndian32(at offset: Int) -> UInt32 {
            header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let applicationID = Int32(bitPattern: bigEndian32(at: 68))
        let schemaCookie = bigEndian32(at: 40)
        guard Schema.accepts(applicationID: applicationID, hasSchema: schemaCookie != 0) else { throw anotherProgramsFile(path) }
        return .sqlite
    }

    private static func anotherProgramsFile(_ path: String) -> HealthError {
        .unusableStore(UnusableStore(path: path, reason: .anotherProgramsFile))
    }

    /// Opens the connections (`writer` says which), trying again while another connection's write
    /// stands in the way. Opening a writable pool may write (GRDB makes sure the WAL file is not empty),
    /// and when another process commits meanwhile SQLite answers SQLITE_BUSY_SNAPSHOT at once, without
    /// the busy handler.
    private static func openConnections(path: String, configuration: Configuration, readOnlyOpening: ReadOnlyOpening?,
                                        patience: WriterPatience) throws -> any DatabaseWriter {
        SQLiteProcessSettings.applied
        if let readOnlyOpening {
            return try DatabaseQueue(path: readOnlyOpening.filename(for: path), configuration: configuration)
        }
        let deadline = Date().addingTimeInterval(patience.limit)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(20_000)
            }
        }
    }

    /// Another connection held the write lock for longer than `patience` allows.
    private static func busy(_ path: String, patience: WriterPatience) -> HealthError {
        .storeBusy("\(path) is busy: another hmon (an import?) held it for longer than \(shown(patience.limit)) s; nothing was written, try again")
    }

    private static func openingError(_ error: any Error, path: String, patience: WriterPatience) -> HealthError {
        if let health = error as? HealthError { return health }
        if let database = error as? DatabaseError {
            switch database.resultCode {
            case .SQLITE_NOTADB:
                return .unusableStore(UnusableStore(path: path, reason: .notSQLite))
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
                return .unusableStore(UnusableStore(path: path, reason: .notPermitted(detail: database.message ?? "permission denied")))
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return busy(path, patience: patience)
            default:
                return .unusableStore(UnusableStore(path: path, reason: .cannotOpen(detail: database.message ?? database.description)))
            }
        }
        return .unusableStore(UnusableStore(path: path, reason: .cannotOpen(detail: reason(error))))
    }

    private static func shown(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(rounding: seconds)) : String(seconds)
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}
