import Foundation
import HealthCore
import HealthModel

/// One line of the overview: what it is, its figure now, a word on it, and its last 30 days.
public struct OverviewRow: Sendable, Equatable {
    /// "Weight".
    public var label: String
    /// "69.6 kg"; "—" when there is nothing to show.
    public var figure: String
    /// "−0.21 kg/week", or how to fill an empty row ("log food on Energy (3)").
    public var detail: String
    /// One value a day on the overview's shared axis, oldest first; nil for a day without one.
    public var values: [Double?]
    /// What the line is about: the overview's Enter opens the screen that shows it in full.
    public var topic: Topic
    public var isEmpty: Bool { values.allSatisfy { $0 == nil } }

    public enum Topic: Sendable, Equatable {
        case weight, energy, hrv, sleep, restingHeartRate, steps, readiness, vitalSign
    }
}

/// The overview: one line per question a person opens hmon with (the weight's trend and its weekly rate,
/// today's and the week's net energy, the last HRV against its baseline, last night's sleep, resting heart
/// rate and steps), each with its last 30 days as a sparkline on one time axis, so a dip in HRV lines up
/// with the short night and the surplus before it.
@MainActor
public final class OverviewModel {
    public private(set) var rows: [OverviewRow] = []
    /// "30 days, Oct 22 – Nov 20".
    public private(set) var period = ""
    /// The axis' ends: "Oct 22", "Nov 20".
    public private(set) var firstDay = ""
    public private(set) var lastDay = ""
    public var isRefreshing: Bool { loads.isRunning }
    public private(set) var problem: String?
    public private(set) var lastUpdated: Date?
    public private(set) var hasLoaded = false

    public static let days = 30

    private let service: any HealthService
    private let clock: Clock
    let loads = LoadSlot(model: "overview")

    public init(service: any HealthService, clock: Clock) {
        self.service = service
        self.clock = clock
    }

    public func refresh() -> Command {
        let service = service, clock = clock
        let now = clock.now(), calendar = clock.calendar, today = clock.today
        let first = today.adding(days: -(Self.days - 1))
        let ask = OverviewScreenData.Ask(days: first...today, now: now, calendar: calendar)
        return Command(loads.load("overview to \(today)") {
            try await service.overviewScreen(ask)
        } apply: { [weak self] result in
            guard let self else { return .none }
            switch result {
            case .success(let loaded):
                rows = OverviewRows.make(loaded.profile, weights: loaded.weights, energy: loaded.energy, totals: loaded.totals,
                                         first: first, today: today, calendar: calendar)
                let formats = Formats(calendar: calendar)
                firstDay = formats.shortDay(first)
                lastDay = formats.shortDay(today)
                period = "\(Self.days) days, \(firstDay) – \(lastDay)"
                problem = nil
                hasLoaded = true
                lastUpdated = clock.now()
            case .failure(let error):
                problem = describe(error)
            }
            return .none
        })
    }
}

