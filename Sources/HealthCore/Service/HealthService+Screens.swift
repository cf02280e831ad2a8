import Foundation
import HealthModel

/// A screen's worth of data from the single calls: what a local store and the server compute, and what the
/// remote client falls back to against a server without hmon's screen views (each `…FromCalls` in Screens/).
extension HealthService {
    public func devicesOverview() async throws -> DevicesOverview { try await devicesOverviewFromCalls() }
    public func devicesScreen(_ ask: DevicesScreenData.Ask) async throws -> DevicesScreenData { try await devicesScreenFromCalls(ask) }
    public func weightsScreen(_ ask: WeightsScreenData.Ask) async throws -> WeightsScreenData { try await weightsScreenFromCalls(ask) }
    public func energyScreen(_ ask: EnergyScreenData.Ask) async throws -> EnergyScreenData { try await energyScreenFromCalls(ask) }
    public func hrvScreen(_ ask: HRVScreenData.Ask) async throws -> HRVScreenData { try await hrvScreenFromCalls(ask) }
    public func insightsScreen(_ ask: InsightsScreenData.Ask) async throws -> InsightsScreenData { try await insightsScreenFromCalls(ask) }
    public func overviewScreen(_ ask: OverviewScreenData.Ask) async throws -> OverviewScreenData { try await overviewScreenFromCalls(ask) }
    public func sleepReport(_ ask: SleepReportAsk) async throws -> SleepReport { try await sleepReportFromCalls(ask) }
    public func vitalsScreen(_ ask: VitalsScreenData.Ask) async throws -> VitalsScreenData { try await vitalsScreenFromCalls(ask) }

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
