import Foundation
import GRDB
import HealthCore
import HealthModel

/// One row of the `messages` table as it is written: the one place that names its columns for an
/// insert. Posting, batches, the importer and the demo data all write through it.
///
/// It is made from the reading's checked fields (`init(…fields:)`), so its JSON and the four numbers kept
/// beside it (`ReadingNumbers`) always agree.
struct MessageRecord: PersistableRecord {
    static let databaseTableName = "messages"

    var mid: String
    /// The device's id and its type's id.
    var sdid: String
    var sdtid: String
    var uid: String
    /// When the reading was taken and when it was received, ms since the epoch.
    var ts: Int64
    var cts: Int64
    /// The manifest version the data follows.
    var mv: Int
    /// The data as JSON (`{"weight":72.4}`).
    var data: String
    /// The data's numbers the screens sum and chart from indexes (`ReadingNumbers`).
    var weight: Double?
    var activeEnergy: Double?
    var calories: Double?
    var basalEnergy: Double?
    /// The way an arrival brought it (`ReadingPath`), which source order ranks; nil when not said.
    var via: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case mid, sdid, sdtid, uid, ts, cts, mv, data
        case weight, activeEnergy = "active_energy", calories, basalEnergy = "basal_energy", via
    }

    /// The four ids go in as `StoredID` bytes (`BinaryID`).
    func encode(to container: inout PersistenceContainer) {
        container[CodingKeys.mid.rawValue] = StoredID(mid)
        container[CodingKeys.sdid.rawValue] = StoredID(sdid)
        container[CodingKeys.sdtid.rawValue] = StoredID(sdtid)
        container[CodingKeys.uid.rawValue] = StoredID(uid)
        container[CodingKeys.ts.rawValue] = ts
        container[CodingKeys.cts.rawValue] = cts
        container[CodingKeys.mv.rawValue] = mv
        container[CodingKeys.data.rawValue] = data
        container[CodingKeys.weight.rawValue] = weight
        container[CodingKeys.activeEnergy.rawValue] = activeEnergy
        container[CodingKeys.calories.rawValue] = calories
        container[CodingKeys.basalEnergy.rawValue] = basalEnergy
        container[CodingKeys.via.rawValue] = via
    }

    /// The row of a reading whose `fields` have been checked (`ReadingRules.accepted`).
    init(mid: String, sdid: String, sdtid: String, uid: String, ts: Int64, cts: Int64, mv: Int,
         fields: [String: FieldValue], via: ReadingPath? = nil) throws {
        let numbers = ReadingNumbers(fields)
        (self.mid, self.sdid, self.sdtid, self.uid, self.ts, self.cts, self.mv) = (mid, sdid, sdtid, uid, ts, cts, mv)
        self.via = via?.rawValue
        data = try StoreRules.encode(fields)
        (weight, activeEnergy, calories, basalEnergy) = (numbers.weight, numbers.activeEnergy, numbers.calories, numbers.basalEnergy)
    }

    /// `INSERT … ON CONFLICT (mid) DO NOTHING`, with a named parameter (`:mid`) per column.
    ///
    /// GRDB's `insert(_:onConflict: .ignore)` writes `INSERT OR IGNORE`, which would also silently drop
    /// a row that breaks a `NOT NULL` or `CHECK` constraint; only a reading already stored may be skipped.
    static let insertUnlessStoredSQL: String = {
        let columns = CodingKeys.allCases.map(\.rawValue)
        return "INSERT INTO \(databaseTableName) (\(columns.joined(separator: ", "))) "
            + "VALUES (\(columns.map { ":" + $0 }.joined(separator: ", "))) ON CONFLICT (mid) DO NOTHING"
    }()

    /// Inserts the row unless a reading with its `mid` is stored; returns whether it was added.
    /// Runs on a statement GRDB caches per connection, so a loop of these prepares it once.
    @discardableResult
    func insertUnlessStored(_ db: Database) throws -> Bool {
        try db.cachedStatement(sql: Self.insertUnlessStoredSQL).execute(arguments: StatementArguments(try databaseDictionary))
        return db.changesCount > 0
    }
}
