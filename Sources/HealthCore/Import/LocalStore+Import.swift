import Crypto
import Foundation
import GRDB

/// Bringing an export into the store: all or nothing per file, and idempotent.
extension LocalStore {
    /// Reads `url` and adds its readings to the user's devices in one write transaction.
    ///
    /// - All or nothing: the file is parsed inside the transaction and each reading inserted as it is
    ///   found, so memory stays flat; any error rolls everything back and nothing of the file is kept.
    /// - Idempotent: each reading's `mid` is derived from the user, its source, kind, time and value,
    ///   and inserted with `ON CONFLICT DO NOTHING`, so a second import of the same file — or an export
    ///   overlapping an earlier one — adds only what is new (`tally.added` vs `tally.alreadyThere`).
    /// - Readings land on devices named after their source ("Apple Watch", "Jörg's iPhone") of the
    ///   built-in type of their kind, created when missing.
    /// - The profile's empty birth date, sex and height are filled from the export.
    /// - `dryRun` does all of it and rolls back, so the counts say what an import would add.
    ///
    /// Synchronous on purpose: the whole file is one transaction on the writer connection.
    /// Throws `ImportError` for a malformed file, `HealthError` for a store problem.
    public func importFile(_ url: URL, userID: String, dryRun: Bool = false, timeZone: TimeZone = .current,
                           now: Date = Date(), progress: ((ImportProgress) -> Void)? = nil) throws -> ImportResult {
        do {
            return try writer.writeWithoutTransaction { db in
                var result: ImportResult?
                try db.inTransaction(.immediate) {
                    guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)", arguments: [userID]) == true else {
                        throw HealthError.unknownUser(userID)
                    }
                    // A bigger page cache for the duration: the mid index is written in random order.
                    try db.execute(sql: "PRAGMA cache_size = -32768")
                    defer { try? db.execute(sql: "PRAGMA cache_size = -2000") }
                    let writer = try ImportWriter(db: db, userID: userID, now: now)
                    var imported = try Importer.read(url, timeZone: timeZone, progress: progress) { reading in
                        try writer.insert(reading)
                    }
                    writer.finish(into: &imported.tally)
                    try Self.fillProfile(from: imported.profile, userID: userID, now: now, tally: &imported.tally, db: db)
                    result = imported
                    return dryRun ? .rollback : .commit
                }
                return result!
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw mapped(error)
        }
    }

    /// Fills the profile's empty fields from the export; a value the profile rules refuse is left out.
    private static func fillProfile(from imported: ImportedProfile, userID: String, now: Date,
                                    tally: inout ImportTally, db: Database) throws {
        guard !imported.isEmpty,
              let row = try Row.fetchOne(db, sql: "SELECT birth_date, sex, height_cm FROM profiles WHERE user_id = ?",
                                         arguments: [userID]) else { return }
        let today = Day(now, in: Calendar.current)
        func acceptable(_ profile: Profile) -> Bool { (try? ProfileRules.check(profile, today: today)) != nil }
        if (row["birth_date"] as String?) == nil, let day = imported.birthDate, acceptable(Profile(birthDate: day)) {
            try db.execute(sql: "UPDATE profiles SET birth_date = ? WHERE user_id = ?", arguments: [day.description, userID])
            tally.profileFilled.append("date of birth")
        }
        if (row["sex"] as String?) == nil, let sex = imported.sex {
            try db.execute(sql: "UPDATE profiles SET sex = ? WHERE user_id = ?", arguments: [sex.rawValue, userID])
            tally.profileFilled.append("sex")
        }
        if (row["height_cm"] as Double?) == nil, let cm = imported.heightCm, acceptable(Profile(heightCm: cm)) {
            try db.execute(sql: "UPDATE profiles SET height_cm = ? WHERE user_id = ?", arguments: [cm, userID])
            tally.profileFilled.append("height")
        }
    }
}

/// Inserts imported readings inside the import's transaction: finds or creates devices once per
/// source and type, reuses one prepared statement, and counts what was new.
private final class ImportWriter {
    private let db: Database
    private let userID: String
    private let received: Int64
    private let insertStatement: Statement
    private var devices: [DeviceKey: (id: String, dtid: String, mv: Int)] = [:]
    private var added: [ReadingKind: Int] = [:]
    private var alreadyThere: [ReadingKind: Int] = [:]
    private var skipped: [String: Int] = [:]

    private struct DeviceKey: Hashable {
        var source: String
        var typeID: String
    }

    init(db: Database, userID: String, now: Date) throws {
        self.db = db
        self.userID = userID
        received = now.millisecondsSince1970
        insertStatement = try db.makeStatement(sql: """
            INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (mid) DO NOTHING
            """)
    }

    func insert(_ reading: ImportedReading) throws {
        guard reading.timestamp >= 0, reading.timestamp <= received + 86_400_000 else {
            skipped["reading dated before 1970 or in the future", default: 0] += 1
            return
        }
        let device = try device(for: reading.source, type: reading.kind.builtInType)
        let json = StoredReading.json(reading)
        let mid = StoredReading.mid(userID: userID, reading: reading, json: json)
        insertStatement.setUncheckedArguments([mid, device.id, device.dtid, userID, reading.timestamp, received, device.mv, json])
        try insertStatement.execute()
        if db.changesCount > 0 {
            added[reading.kind, default: 0] += 1
        } else {
            alreadyThere[reading.kind, default: 0] += 1
        }
    }

    func finish(into tally: inout ImportTally) {
        tally.added = added
        tally.alreadyThere = alreadyThere
        for (reason, count) in skipped { tally.skippedReasons[reason, default: 0] += count }
    }

    /// The user's device for a source and type: one named exactly after the source, else
    /// "Source (Type name)" (device names are unique per user), created when there is none.
    private func device(for source: String, type: BuiltInDeviceType) throws -> (id: String, dtid: String, mv: Int) {
        let typeID = type.deviceType.id
        let key = DeviceKey(source: source, typeID: typeID)
        if let known = devices[key] { return known }
        let name = String(source.prefix(100))
        let qualified = String("\(source.prefix(80)) (\(type.deviceType.name))")
        var found: (id: String, dtid: String, mv: Int)?
        for candidate in [name, qualified] where found == nil {
            if let row = try Row.fetchOne(db, sql: """
                SELECT id, manifest_version FROM devices WHERE uid = ? AND dtid = ? AND name = ? COLLATE NOCASE
                ORDER BY created_at LIMIT 1
                """, arguments: [userID, typeID, candidate]) {
                found = (row["id"], typeID, row["manifest_version"])
            }
        }
        if found == nil {
            let nameTaken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM devices WHERE uid = ? AND name = ? COLLATE NOCASE)",
                                              arguments: [userID, name]) == true
            let id = Secrets.newID()
            try db.execute(
                sql: "INSERT INTO devices (id, uid, dtid, name, manifest_version, created_at, connected) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [id, userID, typeID, nameTaken ? qualified : name, type.deviceType.latestVersion, received, true])
            found = (id, typeID, type.deviceType.latestVersion)
        }
        devices[key] = found!
        return found!
    }
}

/// How an imported reading is stored: its message data and its deterministic id.
enum StoredReading {
    /// `{"weight":72.4}`, in the units and number types of the built-in manifests
    /// (height in m; calories a whole number of kcal).
    static func json(_ reading: ImportedReading) -> String {
        var text = "{\"" + reading.kind.field + "\":" + storedValue(reading.kind, reading.value)
        for (name, value) in reading.extras.sorted(by: { $0.key < $1.key }) {
            text += ",\"" + name + "\":" + number(value)
        }
        return text + "}"
    }

    private static func storedValue(_ kind: ReadingKind, _ value: Double) -> String {
        switch kind {
        case .height: number(value / 100)
        case .dietaryEnergy: String(Int64(value.rounded()))
        default: number(value)
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A deterministic id: 12 hex digits of the time, then 20 of SHA-256 over user, source, kind,
    /// time and stored data. The same reading imported again (from this file or an overlapping export)
    /// gets the same id; the time prefix keeps the primary-key index written nearly in order, which
    /// makes a large import several times faster than fully random ids would.
    static func mid(userID: String, reading: ImportedReading, json: String) -> String {
        var key = userID
        key += "\u{1F}"
        key += reading.source
        key += "\u{1F}"
        key += reading.kind.rawValue
        key += "\u{1F}"
        key += String(reading.timestamp)
        key += "\u{1F}"
        key += json
        let digest = key.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { hex in
            var time = UInt64(max(0, reading.timestamp))
            for i in stride(from: 11, through: 0, by: -1) {
                hex[i] = hexDigits[Int(time & 0x0F)]
                time >>= 4
            }
            var i = 12
            for byte in digest {
                guard i < 32 else { break }
                hex[i] = hexDigits[Int(byte >> 4)]
                hex[i + 1] = hexDigits[Int(byte & 0x0F)]
                i += 2
            }
            return String(decoding: hex, as: UTF8.self)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

extension ReadingKind {
    /// The built-in device type whose devices carry readings of this kind.
    var builtInType: BuiltInDeviceType {
        switch self {
        case .weight, .height: .withings
        case .activeEnergy, .basalEnergy, .heartRateVariability: .activityTracker
        case .dietaryEnergy: .calorieTracker
        }
    }
}
