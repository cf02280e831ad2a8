import Foundation
import PostgresNIO
import HealthCore
import HealthModel

/// An arrival's writes in one transaction (`ReadingStore.applyArrival`), as `LocalStore+Arrivals` applies them.
extension PostgresStore {
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
                    results.append(try await Self.apply(write, userID: userID, path: path, received: received, targets: &targets, in: db))
                } catch let error as HealthError {
                    throw StoreRules.inBatch(error, at: index)
                }
            }
            return results
        }
    }

    private static func apply(_ write: ArrivalWrite, userID: String, path: ReadingPath?, received: Int64,
                              targets: inout [String: ReadingTarget], in db: PGConnection) async throws -> ArrivalWriteResult {
        switch write {
        case .delete(let mid):
            guard try Message.ownedIfStored(try await db.rows(ReadingStatements.reading(mid)).first, mid: mid, by: userID) != nil else { return .absent }
            try await db.run("DELETE FROM messages WHERE mid = \(ByteaID(mid))")
            return .deleted
        case .put(let mid, let message, let sentAt):
            let target: ReadingTarget
            if let known = targets[message.sdid] {
                target = known
            } else {
                target = try await readingTarget(deviceID: message.sdid, ownedBy: userID, in: db)
                targets[message.sdid] = target
            }
            let ts = message.ts ?? received
            let fields = try target.accepted(message.data)
            let json = try StoreRules.encode(fields)
            let old = try Message.ownedIfStored(try await db.rows(ReadingStatements.reading(mid)).first, mid: mid, by: userID)
            let stored = try JSONDecoder().decode([String: FieldValue].self, from: Data(json.utf8))
            let result = ArrivalWriteResult.ofPut(stored: old, ts: ts, fields: stored, sentAt: sentAt)
            let kept = ArrivalWriteResult.receivedTime(sentAt: sentAt, received: received)
            switch result {
            case .added:
                _ = try await insertReading(mid: mid, device: target.device, userID: userID, ts: ts, received: kept, fields: fields, via: path,
                                            in: db)
            case .changed:
                // A new `seq` signs the reading's days' kept sums anew (`dayTotals`).
                let numbers = ReadingNumbers(fields)
                try await db.run("""
                    UPDATE messages SET sdid = \(ByteaID(target.device.id)), sdtid = \(ByteaID(target.device.dtid)), ts = \(ts), cts = \(kept),
                        data = \(json), mv = \(target.device.manifestVersion),
                        seq = nextval(pg_get_serial_sequence('messages', 'seq')),
                        weight = \(numbers.weight), active_energy = \(numbers.activeEnergy), calories = \(numbers.calories),
                        basal_energy = \(numbers.basalEnergy), via = \(path?.rawValue)
                    WHERE mid = \(ByteaID(mid))
                    """)
            default:
                break
            }
            return result
        }
    }
}
