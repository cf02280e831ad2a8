import Foundation
import GRDB

/// A stored reading with its `data` left as the JSON text the store keeps. The server's hottest call
/// (`GET /v1.1/messages/last`, the dashboard's refresh) writes these straight into the answer instead of
/// decoding every reading's data and encoding it again.
public struct StoredMessageJSON: Sendable, Equatable {
    public var mid: String
    public var sdid: String
    public var sdtid: String
    public var uid: String
    public var ts: Int64
    public var cts: Int64
    public var mv: Int
    /// The reading's data object as stored (valid JSON: the table checks it).
    public var dataJSON: String
}

extension LocalStore {
    /// `lastMessages(deviceID:userID:count:field:)` without decoding the data: the same ownership check
    /// (`.unknownDevice`, `.notYourDevice`), the same order (newest first) and the same field filter.
    public func lastMessagesJSON(deviceID: String, userID: String, count: Int, field: String?) async throws -> [StoredMessageJSON] {
        try Self.checkCount(count)
        return try await read { db in
            _ = try Self.device(id: deviceID, ownedBy: userID, in: db)
            guard let presence = try Self.presenceFilter(field) else { return [] }
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT mid, sdid, sdtid, uid, ts, cts, mv, data FROM messages WHERE sdid = ? \(presence.sql) ORDER BY ts DESC, mid DESC LIMIT ?",
                arguments: [deviceID] + presence.arguments + [count])
            return rows.map { row in
                StoredMessageJSON(mid: row[0], sdid: row[1], sdtid: row[2], uid: row[3], ts: row[4], cts: row[5], mv: row[6],
                                  dataJSON: row[7])
            }
        }
    }
}

extension SAMI.LastMessages {
    /// The `messages/last` answer written directly from stored readings (same shape as the Codable one).
    public static func json(sdids: String, count: Int, messages: [StoredMessageJSON]) -> Data {
        var out = "{\"sdids\":"
        out.reserveCapacity(256 + messages.count * 320)
        JSONText.appendString(sdids, to: &out)
        out += ",\"count\":\(count),\"size\":\(messages.count),\"data\":["
        for (index, message) in messages.enumerated() {
            if index > 0 { out += "," }
            out += "{\"mid\":"
            JSONText.appendString(message.mid, to: &out)
            out += ",\"data\":"
            out += message.dataJSON
            out += ",\"ts\":\(message.ts),\"sdtid\":"
            JSONText.appendString(message.sdtid, to: &out)
            out += ",\"cts\":\(message.cts),\"uid\":"
            JSONText.appendString(message.uid, to: &out)
            out += ",\"mv\":\(message.mv),\"sdid\":"
            JSONText.appendString(message.sdid, to: &out)
            out += "}"
        }
        out += "]}"
        return Data(out.utf8)
    }
}

/// Writing JSON strings by hand, escaped as RFC 8259 requires.
enum JSONText {
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
