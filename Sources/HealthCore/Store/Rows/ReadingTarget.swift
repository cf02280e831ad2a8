import Foundation
import HealthModel

/// The device a write puts readings on, with what the write checks them against: its type's manifest and
/// name. Each engine looks it up inside its write transaction (the device owned by the writer; PostgreSQL
/// also locks its row) and leaves the rules to it, so a post, a batch and an edit accept, refuse and shape
/// a reading alike on both.
public struct ReadingTarget: Sendable {
    public let device: Device
    public let manifest: Manifest
    /// The device type's name, for refusals ("… for a Scale"); its id when the type has no row.
    public let typeName: String

    public init(device: Device, manifest: Manifest, typeName: String?) {
        self.device = device
        self.manifest = manifest
        self.typeName = typeName ?? device.dtid
    }

    /// `data` as the store keeps it (`ReadingRules.accepted`), or why it is refused.
    public func accepted(_ data: [String: FieldValue]) throws -> [String: FieldValue] {
        try ReadingRules.accepted(data, manifest: manifest, typeName: typeName)
    }

    /// A new reading as it was stored and as `reading(id:)` reads it back: its fields from `json`, the
    /// text stored (`StoreRules.encode`), not from the values before they were written.
    public func storedReading(mid: String, userID: String, ts: Int64, received: Int64, json: String) throws -> Message {
        Message(mid: mid, sdid: device.id, sdtid: device.dtid, uid: userID, ts: ts, cts: received, mv: device.manifestVersion,
                data: try JSONDecoder().decode([String: FieldValue].self, from: Data(json.utf8)))
    }

    /// `old` as `change` leaves it, after the checks of a new reading (its fields merged over the old ones,
    /// then `accepted`); it keeps its id, device and received time, and follows the device's manifest now.
    /// `change.check(now:)` has been passed before the transaction.
    public func edited(_ old: Message, by change: ReadingChange) throws -> Message {
        var edited = old
        edited.data = try accepted(old.data.merging(change.data) { $1 })
        edited.ts = change.ts ?? old.ts
        edited.mv = device.manifestVersion
        return edited
    }
}

extension ReadingChange {
    /// What an edit refuses before it opens a transaction: a change of nothing, a time out of bounds.
    public func check(now: Date) throws {
        if isEmpty { throw HealthError.invalidValue("the change names neither a new time nor a new value: pass at least one") }
        if let ts { try StoreRules.checkTimestamp(ts, now: now.millisecondsSince1970) }
    }
}

extension StoreRules {
    /// A posted reading's id and time, checked before any transaction: the time (the receipt's when the
    /// reading has none) within `checkTimestamp`, the device id without NUL; a new id when none is given.
    public static func postedRow(_ message: NewMessage, mid: String?, received: Int64) throws -> (mid: String, ts: Int64) {
        let ts = message.ts ?? received
        try checkTimestamp(ts, now: received)
        try checkNoNUL(message.sdid, as: "sdid")
        return (mid ?? Secrets.newID(), ts)
    }

    /// A post with an id already stored (a post, unlike a batch, never skips one).
    public static func readingExists(_ mid: String) -> HealthError {
        .invalidValue("a reading with id \(mid) already exists")
    }

    /// A batch's refusal, named by the reading's place in it ("reading 17: …"); `index` counts from 0.
    public static func inBatch(_ error: HealthError, at index: Int) -> HealthError {
        .invalidValue("reading \(index + 1): \(error.message)")
    }
}
