import Foundation
import HealthModel

/// The readings' counts and one reading by id, written once over an engine's statements.
extension ReadingStore where Self: StatementEngine {
    /// How many readings a user has, over all their devices.
    public func messageCount(userID: String) async throws -> Int {
        Int(try await fetchOne("SELECT count(*) AS n FROM messages WHERE uid = \(binaryID: userID)")?.integer("n") ?? 0)
    }

    /// One of the user's readings; `.unknownReading` when there is none, `.notYourReading` when it is someone else's.
    public func reading(id mid: String, userID: String) async throws -> Message {
        try Message.owned(try await fetchOne(ReadingStatements.reading(mid)), mid: mid, by: userID)
    }

    /// Per device, how many of the user's readings are stamped from `since` on.
    public func readingCounts(userID: String, since: Int64) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try await fetch("SELECT sdid, count(*) AS n FROM messages WHERE uid = \(binaryID: userID) AND ts >= \(since) GROUP BY sdid") {
            counts[try row.text("sdid")] = Int(try row.integer("n"))
        }
        return counts
    }
}

extension DerivedDayStore where Self: StatementEngine {
    public func countReadings(userID: String, from: Int64) async throws -> Int {
        Int(try await fetchOne("SELECT count(*) AS n FROM messages WHERE uid = \(binaryID: userID) AND ts >= \(from)")?.integer("n") ?? 0)
    }
}

/// The reading statements engine code also runs inside its own transactions (an edit, a deletion).
public enum ReadingStatements {
    public static func reading(_ mid: String) -> StoreStatement { "SELECT * FROM messages WHERE mid = \(binaryID: mid)" }
}

extension StatementSession {
    /// One of the user's readings; `.unknownReading` or `.notYourReading` otherwise.
    public func ownedReading(_ mid: String, userID: String) throws -> Message {
        try Message.owned(try one(ReadingStatements.reading(mid)), mid: mid, by: userID)
    }
}

extension Message {
    /// The reading in `row` when `userID` owns it; `.unknownReading` or `.notYourReading` otherwise.
    public static func owned(_ row: StoreRow?, mid: String, by userID: String) throws -> Message {
        guard let row else { throw HealthError.unknownReading(mid) }
        guard try row.text("uid") == userID else { throw HealthError.notYourReading(mid) }
        return try Message(row: row)
    }

    /// The reading in `row` when `userID` owns it, nil when there is none (a write that adds it when absent);
    /// `.notYourReading` when it is someone else's.
    public static func ownedIfStored(_ row: StoreRow?, mid: String, by userID: String) throws -> Message? {
        guard let row else { return nil }
        return try owned(row, mid: mid, by: userID)
    }

    public init(row: StoreRow) throws {
        let json = try row.text("data")
        let data = try JSONDecoder().decode([String: FieldValue].self, from: Data(json.utf8))
        self.init(mid: try row.text("mid"), sdid: try row.text("sdid"), sdtid: try row.text("sdtid"), uid: try row.text("uid"),
                  ts: try row.integer("ts"), cts: try row.integer("cts"), mv: Int(clamping: try row.integer("mv")), data: data)
    }
}

extension ReadingStore where Self: StatementEngine {
    /// A range on the primary key: ids hmon makes are 16 bytes kept from 32 hex digits (`BinaryID`), so
    /// every one starting with the hex digits `prefix` lies in one byte range. An id that is not hex is
    /// found by its whole text only.
    public func readingIDs(startingWith prefix: String, userID: String, limit: Int) async throws -> [String] {
        guard let range = BinaryID.range(ofHexPrefix: prefix) else { return [] }
        let statement: StoreStatement = if let upper = range.upper {
            """
            SELECT mid FROM messages WHERE mid >= \(bytes: Data(range.lower)) AND mid < \(bytes: Data(upper)) AND length(mid) = 16
                AND uid = \(binaryID: userID) ORDER BY mid LIMIT \(limit)
            """
        } else {
            """
            SELECT mid FROM messages WHERE mid >= \(bytes: Data(range.lower)) AND length(mid) = 16 AND uid = \(binaryID: userID)
            ORDER BY mid LIMIT \(limit)
            """
        }
        return try await fetch(statement).map { try $0.text("mid") }
    }
}
