import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel
@testable import SQLiteStorage

/// Issue 16, items 4 and 5 in the core: a store opened to read never writes, creates or migrates, and
/// reads while another connection holds the write lock; a writer that finds the lock taken waits,
/// says so, and gives up with a distinct `storeBusy`.
@Suite struct ReadOnlyStoreTests {
    /// A store with one user and a scale, closed again, and its folder.
    static func closedStore() async throws -> (TemporaryFolder, URL) {
        let folder = try TemporaryFolder()
        let url = folder.file("hmon.sqlite")
        let store = try LocalStore(url: url, passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        _ = try await store.addDevice(name: "Scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id)
        return (folder, url)
    }

    /// The bytes and modification time of the store's file.
    static func fingerprint(_ url: URL) throws -> (Data, Date) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (try Data(contentsOf: url), attributes[.modificationDate] as! Date)
    }

    @Test func aMissingStoreIsNotCreatedByAReaderNorAWriterThatMayNotCreate() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("missing-folder/hmon.sqlite")
        for access in [StoreAccess.readOnly, .readWrite] {
            #expect(throws: HealthError.unusableStore(UnusableStore(path: url.path, reason: .noStore))) {
                try LocalStore(url: url, access: access)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path))
    }

    @Test func aZeroByteFileIsNoStoreAndStaysEmpty() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("empty.sqlite")
        try #require(FileManager.default.createFile(atPath: url.path, contents: Data()))
        #expect(throws: HealthError.unusableStore(UnusableStore(path: url.path, reason: .noStore))) {
            try LocalStore(url: url, access: .readOnly)
        }
        #expect(try Data(contentsOf: url).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func aReaderLeavesTheFileAsItWasAndCannotWrite() async throws {
        let (folder, url) = try await Self.closedStore()
        defer { withExtendedLifetime(folder) {} }  // the folder goes when it does
        let before = try Self.fingerprint(url)
        let store = try LocalStore(url: url, access: .readOnly)
        let user = try #require(try await store.user(named: "alice"))
        #expect(try await store.devices(userID: user.id).map(\.name) == ["Scale"])
        // SQLite itself refuses: the connection was opened with SQLITE_OPEN_READONLY.
        await #expect(throws: HealthError.unusableStore(UnusableStore(path: url.path, reason: .readOnly))) {
            try await store.addDevice(name: "Other", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id)
        }
        let after = try Self.fingerprint(url)
        #expect(after.0 == before.0, "the file's bytes changed")
        #expect(after.1 == before.1, "the file's modification time changed")
    }

    @Test func aReaderDoesNotWaitForAnotherConnectionsWriteLock() async throws {
        let (folder, url) = try await Self.closedStore()
        defer { withExtendedLifetime(folder) {} }  // the folder goes when it does
        let other = try WriteLockHolder(path: url.path, change: "UPDATE users SET full_name = 'uncommitted'")
        defer { try? other.release() }

        // The lock is held until the test ends, so a reader that waited for it could never get it: it would
        // throw "busy" after its 10 s patience (`WriterPatience.standard`). Getting the rows at all shows it
        // did not wait. No clock is read: under a load average of 13–19 one measured the machine, with
        // 8.5–12.3 s seen for a read that did not wait.
        let store = try LocalStore(url: url, access: .readOnly)
        let users = try await store.users()
        #expect(users.map(\.fullName) == [""], "a reader saw an uncommitted change")
    }

    @Test func aStoreBehindInMigrationsIsNotMigratedByAReader() async throws {
        let folder = try TemporaryFolder()
        let url = folder.file("old.sqlite")
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: "v5: a goal weight")
        }
        let before = try Self.fingerprint(url)
        #expect(throws: HealthError.unusableStore(UnusableStore(path: url.path, reason: .olderLayout))) {
            try LocalStore(url: url, access: .readOnly)
        }
        #expect(try Self.fingerprint(url).0 == before.0)
        // A writer brings it up to date; then a reader opens it.
        _ = try LocalStore(url: url, access: .readWrite)
        _ = try LocalStore(url: url, access: .readOnly)
    }

    @Test func aWriterWaitsForTheLockSaysSoOnceAndGivesUpWithStoreBusy() async throws {
        let (folder, url) = try await Self.closedStore()
        defer { withExtendedLifetime(folder) {} }  // the folder goes when it does
        let notices = NoticeLog()
        let store = try LocalStore(url: url, access: .readWrite,
                                   patience: WriterPatience(limit: 0.5, noticeAfter: 0.1) { notices.add($0) })
        let user = try #require(try await store.user(named: "alice"))
        let other = try WriteLockHolder(path: url.path)

        let started = Date()
        do {
            _ = try await store.addDevice(name: "Other", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id)
            Issue.record("wrote while another connection held the write lock")
        } catch HealthError.storeBusy(let message) {
            #expect(message.contains("is busy"), "\(message)")
            #expect(message.contains("nothing was written"), "\(message)")
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.45, "gave up after \(waited) s, before its limit of 0.5 s")
        #expect(notices.lines.count == 1)
        #expect(notices.lines.first?.contains("waiting for another hmon writing to \(url.path)") == true)

        // A patient writer gets in once the lock is let go.
        // Let go once the patient writer has said it waits: released on what it said, not after a guess.
        let patientNotices = NoticeLog()
        let patient = try LocalStore(url: url, access: .readWrite,
                                     patience: WriterPatience(limit: 20, noticeAfter: 0.05) { patientNotices.add($0) })
        async let added = patient.addDevice(name: "Other", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id)
        let noticed = await Waiting.until { !patientNotices.lines.isEmpty }
        try other.release()
        _ = try await added
        #expect(noticed, "the patient writer said it waits")
        #expect(try await patient.devices(userID: user.id).map(\.name) == ["Scale", "Other"])
    }
}

/// Lines a `WriterPatience` notice wrote, from whichever thread.
final class NoticeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

/// Another connection to the store's file that takes the write lock (`BEGIN IMMEDIATE`, with an
/// uncommitted change if given) and holds it until `release()`, as another hmon mid-import does.
final class WriteLockHolder: Sendable {
    private let queue: DatabaseQueue

    init(path: String, change: String? = nil) throws {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true  // the transaction outlives one access, on purpose
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            if let change { try db.execute(sql: change) }
        }
    }

    /// Takes the lock again after a `release()`.
    func lock() throws {
        try queue.inDatabase { db in try db.execute(sql: "BEGIN IMMEDIATE") }
    }

    func release(commit: Bool = false) throws {
        try queue.inDatabase { db in try db.execute(sql: commit ? "COMMIT" : "ROLLBACK") }
    }
}
