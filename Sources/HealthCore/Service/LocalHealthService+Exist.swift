import Foundation
import HealthModel

/// Exist's attribute ownership and writes, for the user this service acts for: what the server's Exist
/// routes need beyond `HealthService` (which every face shares, the remote one included). Each call is
/// the store's, scoped to this user, so a route cannot name another user's id.
extension LocalHealthService {
    /// Which service owns each of the user's attributes (Exist's "acquire").
    public func existOwners() async throws -> [InsightAttribute: ExistOwner] {
        try await store.existOwners(userID: try requireUser())
    }

    @discardableResult
    public func acquireExist(_ attribute: InsightAttribute, clientID: String, service: String, now: Date) async throws -> ExistOwner {
        try await store.acquireExist(attribute, userID: try requireUser(), clientID: clientID, service: service, now: now)
    }

    /// Gives `attribute` back; false when `clientID` did not own it.
    public func releaseExist(_ attribute: InsightAttribute, clientID: String) async throws -> Bool {
        try await store.releaseExist(attribute, userID: try requireUser(), clientID: clientID)
    }

    /// Sets (or, with `increment`, adds to) the owning device's value of the day; returns the day's total.
    public func writeExistDay(deviceID: String, field: String, day: (start: Int64, stop: Int64), ts: Int64,
                              value: Double, increment: Bool, now: Date) async throws -> Double {
        try await store.writeExistDay(userID: try requireUser(), deviceID: deviceID, field: field, day: day, ts: ts,
                                      value: value, increment: increment, now: now)
    }

    /// When the user's first reading was taken (milliseconds since 1970), nil when there is none.
    public func firstReadingTime() async throws -> Int64? {
        try await store.firstReadingTime(userID: try requireUser())
    }

    /// What `hmon exist push` last sent to `server`, by attribute name and day, so only changes go again.
    public func existPushed(server: String) async throws -> [String: [String: Double]] {
        try await store.existPushed(server: server, userID: try requireUser())
    }

    /// Remembers values `server` accepted.
    public func rememberExistPushed(server: String, values: [(attribute: String, day: String, value: Double)]) async throws {
        try await store.rememberExistPushed(server: server, userID: try requireUser(), values: values)
    }
}
