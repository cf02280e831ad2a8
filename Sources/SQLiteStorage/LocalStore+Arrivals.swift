import Foundation
import GRDB
import HealthCore
import HealthModel

/// An arrival's writes in one transaction (`ReadingStore.applyArrival`).
extension LocalStore {
    public func applyArrival(_ writes: some ArrivalWriteList, userID: String, path: ReadingPath?, at now: Date) async throws -> [ArrivalWriteResult] {
        try StoreRules.checkArrival(writes, now: now)
        let received = now.millisecondsSince1970
        return try await write { db in
            var targets: [String: ReadingTarget] = [:]
            var results: [ArrivalWriteResult] = []
            results.reserveCapacity(writes.count)
            for index in 0..<writes.count {
                let write = writes.write(at: index)
                do {
                    results.append(try Self.apply(write, userID: userID, path: path, received: received, targets: &targets, in: db))
                } catch let error as HealthError {
                    throw StoreRules.inBatch(error, at: index)
                }
            }
            return results
        }
    }

    private static func apply(_ write: ArrivalWrite, userID: String, path: ReadingPath?, received: Int64,
                              targets: inout [String: ReadingTarget], in db: Database) throws -> ArrivalWriteResult {
        switch write {
        case .delete(let mid):
            guard let old = try Message.ownedIfStored(try SQLiteSession(db: db).one(ReadingStatements.reading(mid)), mid: mid, by: userID) else { return .absent }
            try db.execute(sql: "DELETE FROM messages WHERE mid = ?", arguments: [StoredID(mid)])
            try forgetDayTotals(userID: userID, coveringTs: old.ts, in: db)
            return .deleted
        case .put(let mid, let message, let sentAt):
            let target: ReadingTarget
            if let known = targets[message.sdid] {
                target = known
            } else {
                target = try readingTarget(deviceID: message.sdid, ownedBy: userID, in: db)
                targets[message.sdid] = target
            }
            let ts = message.ts ?? received
            let record = try MessageRecord(mid: mid, sdid: target.device.id, sdtid: target.device.dtid, uid: userID, ts: ts,
                                           cts: ArrivalWriteResult.receivedTime(sentAt: sentAt, received: received),
                                           mv: target.device.manifestVersion, fields: try target.accepted(message.data), via: path)
            let old = try Message.ownedIfStored(try SQLiteSession(db: db).one(ReadingStatements.reading(mid)), mid: mid, by: userID)
            let result = ArrivalWriteResult.ofPut(stored: old, ts: ts, fields: try JSONDecoder().decode([String: FieldValue].self,
                                                                                                     from: Data(record.data.utf8)),
                                                  sentAt: sentAt)
            switch (result, old) {
            case (.added, _):
                try record.insert(db)
            case (.changed, let old?):
                try db.execute(sql: """
                    UPDATE messages SET sdid = ?, sdtid = ?, ts = ?, cts = ?, data = ?, mv = ?, weight = ?, active_energy = ?, calories = ?,
                        basal_energy = ?, via = ?
                    WHERE mid = ?
                    """, arguments: [StoredID(record.sdid), StoredID(record.sdtid), ts, record.cts, record.data, record.mv, record.weight,
                                     record.activeEnergy, record.calories, record.basalEnergy, record.via, StoredID(mid)])
                // An update keeps the rowid and the count, which is all a kept day's signature looks at.
                try forgetDayTotals(userID: userID, coveringTs: old.ts, in: db)
                try forgetDayTotals(userID: userID, coveringTs: ts, in: db)
            default:
                break
            }
            return result
        }
    }
}
