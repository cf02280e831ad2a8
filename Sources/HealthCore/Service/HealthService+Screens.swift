import Foundation
import HealthModel

/// A screen's worth of data from the single calls, for services with no cheaper way (the remote
/// client: the contract has no batch routes). `LocalHealthService` reads each in one transaction.
extension HealthService {
    public func devicesOverview() async throws -> DevicesOverview { try await devicesOverviewFromCalls() }

    /// The devices screen from one call per device and type.
    public func devicesOverviewFromCalls() async throws -> DevicesOverview {
        let user = try await currentUser()
        let devices = try await devices()
        let types = try await deviceTypes()
        var manifests: [String: Manifest] = [:]
        for dtid in Set(devices.map(\.dtid)) {
            manifests[dtid] = try await manifest(ofType: dtid)
        }
        var latest: [String: Message] = [:]
        for device in devices {
            let field = manifests[device.dtid]?.latestReadingField
            latest[device.id] = try await lastMessages(device: device.id, count: 1, field: field).first
        }
        return DevicesOverview(user: user, devices: devices, deviceTypes: types, manifests: manifests, latestReadings: latest)
    }

    public func energySummaries(for days: ClosedRange<Day>, now: Date, calendar: Calendar) async throws -> [EnergySummary] {
        var summaries: [EnergySummary] = []
        var day = days.lowerBound
        while day <= days.upperBound {
            summaries.append(try await energySummary(for: day, now: now, calendar: calendar))
            day = day.adding(days: 1)
        }
        return summaries
    }
}
