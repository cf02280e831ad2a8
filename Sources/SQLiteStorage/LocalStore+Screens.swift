import Foundation
import GRDB
import HealthCore
import HealthModel

/// What a dashboard screen shows, read in one transaction: one consistent snapshot, and one trip to
/// the connection pool's thread instead of one per query (the trips, not the indexed queries, were
/// most of what R cost on the devices and energy screens).
extension LocalStore {
    /// The devices screen for `userID`; nil when the user no longer exists.
    public func devicesOverview(userID: String) async throws -> DevicesOverview? {
        try await read { db in
            guard let user = try SQLiteSession(db: db).one(AccountStatements.user(id: userID)).map(User.init(row:)) else { return nil }
            let devices = try SQLiteSession(db: db).rows(DeviceStatements.devices(userID: userID)).map(Device.init(row:))
            let types = try SQLiteSession(db: db).rows(DeviceStatements.deviceTypes).map(DeviceType.init(row:))
            var manifests: [String: Manifest] = [:]
            for dtid in Set(devices.map(\.dtid)) {
                manifests[dtid] = try SQLiteSession(db: db).manifest(ofType: dtid)
            }
            var latest: [String: Message] = [:]
            for device in devices {
                let field = manifests[device.dtid]?.latestReadingField
                latest[device.id] = try Self.lastMessages(deviceID: device.id, userID: userID, count: 1, field: field, in: db).first
            }
            return DevicesOverview(user: user, devices: devices, deviceTypes: types, manifests: manifests, latestReadings: latest)
        }
    }

    /// What the energy balance of each period needs: the user's profile, and per period
    /// (`from <= ts < to`, ms) the energy totals and the latest weight before its end.
    public func energyInputs(userID: String, periods: [(from: Int64, to: Int64)]) async throws
        -> (profile: Profile, periods: [(totals: EnergyTotals, weight: WeightReading?)]) {
        try await read { db in
            let profile = try Profile(row: try SQLiteSession(db: db).one(AccountStatements.profile(userID: userID)), userID: userID)
            let inputs = try periods.map { period in
                (totals: try Self.energyTotals(userID: userID, from: period.from, to: period.to, in: db),
                 weight: try Self.latestWeight(userID: userID, before: period.to, in: db))
            }
            return (profile, inputs)
        }
    }
}
