import Foundation
import HealthCore
import HealthModel
import SAMIContract

/// Each screen's data in one request (`HMonViews` screen views), so a remote dashboard's screen switch costs
/// one request and its R one more; against a server without them (404), from the single calls as before.
extension RemoteHealthService {
    private func screen<View: Codable & Sendable>(_ name: String, _ query: [(String, String)]) async throws -> View? {
        try await view(HMonViews.screens + "/" + name, query)
    }

    private func unreadable(_ name: String) -> HealthError {
        HealthError.serverError("the server at \(location) sent a \(name) screen this hmon cannot read: update hmon")
    }

    public func devicesScreen(_ ask: DevicesScreenData.Ask) async throws -> DevicesScreenData {
        var query = [("since", String(ask.since.millisecondsSince1970)), ("count", String(ask.recentCount))]
        if let device = ask.recentDevice { query.append(("device", device)) }
        if let view: HMonViews.DevicesScreenView = try await screen("devices", query) { return view.screen }
        return try await devicesScreenFromCalls(ask)
    }

    public func weightsScreen(_ ask: WeightsScreenData.Ask) async throws -> WeightsScreenData {
        let query = span(ask.days, ask.calendar) + [("devices", ask.devices.joined(separator: ",")), ("count", String(ask.latestCount))]
        if let view: HMonViews.WeightsScreenView = try await screen("weights", query) {
            guard let screen = view.screen else { throw unreadable("weights") }
            return screen
        }
        return try await weightsScreenFromCalls(ask)
    }

    public func energyScreen(_ ask: EnergyScreenData.Ask) async throws -> EnergyScreenData {
        let query = span(ask.days, ask.calendar) + [("now", String(ask.now.millisecondsSince1970)),
                                                    ("foodLogs", ask.foodLogs.joined(separator: ",")),
                                                    ("learned", ask.withLearned ? "true" : "false")]
        if let view: HMonViews.EnergyScreenView = try await screen("energy", query) {
            guard let screen = view.screen else { throw unreadable("energy") }
            return screen
        }
        return try await energyScreenFromCalls(ask)
    }

    public func sleepReport(_ ask: SleepReportAsk) async throws -> SleepReport {
        // Without `need` the server measures against the person's profile, as a local store does.
        let query = [("through", ask.through.description), ("days", String(ask.days)), ("tz", ask.calendar.timeZone.identifier)]
            + (ask.needMinutes.map { [("need", String(Int($0.rounded())))] } ?? [])
        if let view: HMonViews.SleepView = try await view("sleep", query) { return view }
        return try await sleepReportFromCalls(ask)
    }

    public func hrvScreen(_ ask: HRVScreenData.Ask) async throws -> HRVScreenData {
        let query = [("devices", ask.meters.joined(separator: ",")), ("count", String(ask.latestCount)),
                     ("through", ask.through.description), ("tz", ask.calendar.timeZone.identifier)]
        if let view: HMonViews.HRVScreenView = try await screen("hrv", query) { return view.screen }
        return try await hrvScreenFromCalls(ask)
    }

    public func insightsScreen(_ ask: InsightsScreenData.Ask) async throws -> InsightsScreenData {
        let query = [("today", ask.today.description), ("tz", ask.calendar.timeZone.identifier), ("days", String(ask.windowDays))]
        if let view: HMonViews.InsightsScreenView = try await screen("insights", query) { return view.screen }
        return try await insightsScreenFromCalls(ask)
    }

    public func vitalsScreen(_ ask: VitalsScreenData.Ask) async throws -> VitalsScreenData {
        if let view: HMonViews.VitalsScreenView = try await screen("vitals", [("count", String(ask.latestCount))]) { return view.screen }
        return try await vitalsScreenFromCalls(ask)
    }

    public func overviewScreen(_ ask: OverviewScreenData.Ask) async throws -> OverviewScreenData {
        let query = span(ask.days, ask.calendar) + [("now", String(ask.now.millisecondsSince1970))]
        if let view: HMonViews.OverviewScreenView = try await screen("overview", query) {
            guard let screen = view.screen else { throw unreadable("overview") }
            return screen
        }
        return try await overviewScreenFromCalls(ask)
    }
}
