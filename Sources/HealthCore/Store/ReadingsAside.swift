import Foundation
import HealthModel

/// A reading kept aside: the same measurement as `countedMid`, which came by a way its family's source
/// order puts first. It is in no figure, list or count, and comes back when its counted reading goes or
/// the order changes (`DuplicateSettling`).
public struct AsideReading: Sendable, Equatable, Codable {
    public var message: Message
    public var path: ReadingPath
    public var countedMid: String

    public init(message: Message, path: ReadingPath, countedMid: String) {
        self.message = message
        self.path = path
        self.countedMid = countedMid
    }
}

extension AsideReading {
    /// The columns a reading moves between `messages` and `readings_aside` with, on both engines: all of
    /// them, so one taken back is counted exactly as it was.
    package static let movedColumns = "mid, sdid, sdtid, uid, ts, cts, mv, data, \(ReadingNumbers.columns), via"
}

/// Where readings that are one measurement with another are kept aside, and each person's source order.
/// Each engine stores; what moves is decided once, by `DuplicateSettling`.
public protocol ReadingsAsideStore: AnyObject, Sendable {
    /// The user's readings holding any of `fields`, counted and kept aside, stamped from `from` to `to`
    /// (both included), each with the way it came; with `otherThan`, only those that came by a way and not by
    /// that one.
    func measurementCandidates(userID: String, fields: [String], from: Int64, to: Int64, otherThan: ReadingPath?) async throws
        -> [MeasurementCandidate]
    /// The user's readings kept aside stamped in `from..<to`, oldest first; with `mids`, only those.
    func asideReadings(userID: String, from: Int64, to: Int64, mids: [String]?) async throws -> [AsideReading]
    /// Moves readings between the counted and the kept aside, in one transaction: a reading set aside keeps
    /// every column it had, and one taken back is counted as it was.
    func exchangeAside(_ exchange: AsideExchange, userID: String) async throws
    /// The user's source order per family; a family absent has the default.
    func sourceOrders(userID: String) async throws -> [MeasurementFamily: SourceOrder]
    func setSourceOrder(_ order: SourceOrder, family: MeasurementFamily, userID: String) async throws
}
