import Foundation
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

    /// The connection pool: one writer, concurrent readers. Write through `write(_:)` so the change
    /// token counts the write.
    package let writer: DatabasePool
    /// A connection used only to read `PRAGMA data_version`. That pragma is per connection and changes
    /// only for commits made by *other* connections, so it must always be read on the same one —
    /// never on the pool, which hands out whichever reader is free.
    private let versionConnection: DatabaseQueue
    /// Writes made through this store object (belt and braces next to `data_version`).
    private let ownWrites = Atomic<Int64>(0)

    /// Opens (creating it and its folder when absent) the store at `url` and brings its schema up to date.
    /// Throws `HealthError.unusableStore` naming the file and what is wrong with it when it cannot be used.
    public init(url: URL, passwordHasher: PasswordHasher = .strong, footprint: StoreFootprint = .standard) throws {
        let url = url.standardizedFileURL
        self.url = url
        self.passwordHasher = passwordHasher
        let path = url.path
        try Self.prepareFile(at: url)

        var configuration = Configuration()
        configuration.label = "hmon"
        configuration.foreignKeysEnabled = true
        // Another process (the command line next to the dashboard) may hold the write lock briefly.
        configuration.busyMode = .timeout(10)
        configuration.maximumReaderCount = max(1, footprint.readers)
        let cacheKiB = max(64, footprint.cacheKiB)
        configuration.prepareDatabase { db in
            // Safe with WAL: a power cut may lose the last commits, never corrupt the file.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
        }
        do {
            writer = try DatabasePool(path: path, configuration: configuration)
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
            if !state.complete { try migrator.migrate(writer) }
            var versionConfiguration = Configuration()
            versionConfiguration.label = "hmon.data_version"
            versionConfiguration.busyMode = .timeout(10)
            versionConnection = try DatabaseQueue(path: path, configuration: versionConfiguration)
        } catch {
            throw Self.openingError(error, path: path)
        }
    }

    /// A value that changes whenever a commit lands in the file, from this process or another one.
    /// Costs one pragma on a dedicated connection: cheap enough to poll every second.
    public func changeToken() throws -> Int64 {
        do {
            let version = try versionConnection.inDatabase { db in
                try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            }
            // Both terms only ever grow, so their sum changes whenever either does.
            return version &+ ownWrites.load(ordering: .acquiring)
        } catch {
            throw mapped(error)
        }
    }

    // MARK: Access for the extension files

    /// Runs `updates` in a write transaction; maps database errors to `HealthError` and counts the write.
    package func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        do {
            let result = try await writer.write(updates)
            ownWrites.add(1, ordering: .releasing)
            return result
        } catch {
            throw mapped(error)
        }
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
                return .storeBusy("\(path) is busy (another hmon is writing to it): try again")
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

    /// Creates the parent folder and, for a new store, an empty file readable only by its owner
    /// (health data is personal; SQLite gives the -wal and -shm files the same mode). An existing
    /// file must already be an hmon store or an empty SQLite database: a foreign file is never touched.
    private static func prepareFile(at url: URL) throws {
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
            try checkIsHmonStore(path)
        } else {
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                close(descriptor)
            } else if errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw HealthError.unusableStore(UnusableStore(path: path, reason: .cannotCreate(detail: reason)))
            }
        }
    }

    /// Reads the file's 100-byte SQLite header (https://sqlite.org/fileformat.html): an hmon store
    /// carries our `application_id` (offset 68); an empty file or an SQLite file with no schema yet
    /// (schema cookie, offset 40, still 0) is welcome too. Reading the bytes, rather than opening a
    /// connection to ask, keeps this check off the launch's critical path; it must come before the
    /// pool opens, because opening switches the file to WAL, and a foreign file is never touched.
    private static func checkIsHmonStore(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .notPermitted(detail: reason)))
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { readBytes(descriptor, $0.baseAddress, 100) }
        if count == 0 { return }
        guard count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw HealthError.unusableStore(UnusableStore(path: path, reason: .notSQLite))
        }
        func bigEndian32(at offset: Int) -> UInt32 {
            header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let applicationID = Int32(bitPattern: bigEndian32(at: 68))
        let schemaCookie = bigEndian32(at: 40)
        if Schema.accepts(applicationID: applicationID, hasSchema: schemaCookie != 0) { return }
        throw anotherProgramsFile(path)
    }

    private static func anotherProgramsFile(_ path: String) -> HealthError {
        .unusableStore(UnusableStore(path: path, reason: .anotherProgramsFile))
    }

    private static func openingError(_ error: any Error, path: String) -> HealthError {
        if let health = error as? HealthError { return health }
        if let database = error as? DatabaseError {
            switch database.resultCode {
            case .SQLITE_NOTADB:
                return .unusableStore(UnusableStore(path: path, reason: .notSQLite))
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
                return .unusableStore(UnusableStore(path: path, reason: .notPermitted(detail: database.message ?? "permission denied")))
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .storeUnavailable("\(path) is locked by another program: try again")
            default:
                return .unusableStore(UnusableStore(path: path, reason: .cannotOpen(detail: database.message ?? database.description)))
            }
        }
        return .unusableStore(UnusableStore(path: path, reason: .cannotOpen(detail: reason(error))))
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}
