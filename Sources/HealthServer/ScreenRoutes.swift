import Foundation
import HealthCore
import HealthModel
import Hummingbird
import SAMIContract

/// `GET /v1.1/hmon/views/screens/…`: what one screen of the dashboard shows after a load, in one answer
/// computed by the same service calls the local dashboard makes (`HMonScreenViews` has the shapes). Each
/// answer has an ETag, so asking again after a change event costs a 304 when the screen did not change; the
/// screens that do not read the server's clock (all but energy, whose today depends on the hour) are kept
/// while the store is unchanged, so asking again costs no computing either; of the overview, all but its
/// energy is kept (`OverviewAnswer`).
struct ScreenRoutes: Sendable {
    let api: APIRoutes

    func add(to group: RouterGroup<ServerContext>) {
        let screens = "hmon/views/" + HMonViews.screens
        group.get("\(screens)/devices") { request, context in try await devices(request, context) }
        group.get("\(screens)/weights") { request, context in try await weights(request, context) }
        group.get("\(screens)/energy") { request, context in try await energy(request, context) }
        group.get("\(screens)/hrv") { request, context in try await hrv(request, context) }
        group.get("\(screens)/insights") { request, context in try await insights(request, context) }
        group.get("\(screens)/overview") { request, context in try await overview(request, context) }
        group.get("\(screens)/vitals") { request, context in try await vitals(request, context) }
    }

    private func devices(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.reader(context)
        let query = try RequestInput.query(request)
        let since = try RequestInput.integer(query, "since", in: 0...HMonViews.latestTime)
        let device = query["device"].flatMap { $0.isEmpty ? nil : $0 }
        let ask = DevicesScreenData.Ask(since: Date(millisecondsSince1970: since), recentDevice: device,
                                    recentCount: try RequestInput.int(query, "count", in: 1...100, default: 12))
        return try await ViewRoutes.kept(request, reader, in: api.viewAnswers) {
            HMonViews.DevicesScreenView(try await reader.service.devicesScreen(ask))
        }
    }

    private func weights(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.reader(context)
        let query = try RequestInput.query(request)
        let (days, calendar) = try ViewRoutes.span(query, maxDays: ViewRoutes.maxDays)
        let ask = WeightsScreenData.Ask(latestCount: try RequestInput.int(query, "count", in: 1...ScreenLimits.maxListed, default: 50),
                                    devices: try Self.ids(query, "devices"), days: days, calendar: calendar)
        return try await ViewRoutes.kept(request, reader, in: api.viewAnswers) {
            HMonViews.WeightsScreenView(try await reader.service.weightsScreen(ask))
        }
    }

    private func energy(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try api.reader(context)
        let query = try RequestInput.query(request)
        let (days, calendar) = try ViewRoutes.span(query, maxDays: ViewRoutes.maxEnergyDays)
        let ask = EnergyScreenData.Ask(days: days, now: try ViewRoutes.now(query, api.configuration), calendar: calendar,
                                   foodLogs: try Self.ids(query, "foodLogs"),
                                   withLearned: try RequestInput.flag(query, "learned", default: false))
        return try ViewRoutes.conditional(request, HMonViews.EnergyScreenView(try await service.energyScreen(ask)))
    }

    private func hrv(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.reader(context)
        let query = try RequestInput.query(request)
        let calendar = try ViewRoutes.calendar(query)
        let ask = HRVScreenData.Ask(latestCount: try RequestInput.int(query, "count", in: 1...ScreenLimits.maxListed, default: 400),
                                meters: try Self.ids(query, "devices"), through: try ViewRoutes.day(query, "through"), calendar: calendar)
        return try await ViewRoutes.kept(request, reader, in: api.viewAnswers) {
            HMonViews.HRVScreenView(try await reader.service.hrvScreen(ask))
        }
    }

    private func insights(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.reader(context)
        let query = try RequestInput.query(request)
        let ask = InsightsScreenData.Ask(today: try ViewRoutes.day(query, "today"), calendar: try ViewRoutes.calendar(query),
                                     windowDays: try RequestInput.int(query, "days", in: 7...ViewRoutes.maxDays / 2,
                                                                      default: CorrelationScan.windowDays))
        return try await ViewRoutes.kept(request, reader, in: api.viewAnswers) {
            HMonViews.InsightsScreenView(try await reader.service.insightsScreen(ask))
        }
    }

    private func overview(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.reader(context)
        let query = try RequestInput.query(request)
        let (days, calendar) = try ViewRoutes.span(query, maxDays: ViewRoutes.maxEnergyDays)
        let ask = OverviewScreenData.Ask(days: days, now: try ViewRoutes.now(query, api.configuration), calendar: calendar)
        let steadyKey = "overview " + query.filter { $0.key != "now" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: "&")
        return ViewRoutes.respond(request, try await OverviewAnswer.answer(ask, reader: reader, key: steadyKey, in: api.viewAnswers))
    }

    private func vitals(_ request: Request, _ context: ServerContext) async throws -> Response {
        let reader = try api.reader(context)
        let query = try RequestInput.query(request)
        let ask = VitalsScreenData.Ask(latestCount: try RequestInput.int(query, "count", in: 1...ScreenLimits.maxListed,
                                                                         default: VitalsScreenData.defaultCount))
        return try await ViewRoutes.kept(request, reader, in: api.viewAnswers) {
            HMonViews.VitalsScreenView(try await reader.service.vitalsScreen(ask))
        }
    }

    // MARK: Parameters

    /// Device ids separated by commas (none when absent or empty).
    static func ids(_ query: [String: String], _ name: String) throws -> [String] {
        let ids = (query[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard ids.count <= ScreenLimits.maxDevices else { throw APIError.validation(name, "names \(ids.count) devices: at most \(ScreenLimits.maxDevices)") }
        return ids
    }
}
