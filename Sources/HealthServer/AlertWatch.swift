import Foundation
import HealthAlerts
import HealthCore
import HealthModel
import Logging
import ServiceLifecycle

/// What the server needs to watch its alert rules (`[[alerts]]` in config.toml, `hmon serve`).
public struct AlertSettings: Sendable {
    public var rules: [AlertRule]
    /// How often every rule is checked (`--alert-interval`).
    public var interval: Duration
    /// Where the rules' states are kept between runs (`AlertStates`).
    public var stateFile: URL
    public var delivery: AlertDelivery
    /// The waits between a failed delivery's attempts.
    public var retryDelays: [Duration] = AlertDelivery.retryDelays

    public init(rules: [AlertRule], interval: Duration, stateFile: URL, delivery: AlertDelivery) {
        self.rules = rules
        self.interval = interval
        self.stateFile = stateFile
        self.delivery = delivery
    }
}

/// The server's background watch of its alert rules: each `interval`, judges every rule from the store;
/// a rule whose condition starts to hold is sent once (its episode), and again only after the condition
/// has ended and started anew. Deliveries run in tasks of their own, retried with growing waits, so no
/// request and no other rule waits on a slow phone server.
struct AlertWatch: Service {
    let settings: AlertSettings
    let evaluation: AlertEvaluation
    let book: AlertStateBook
    let clock: @Sendable () -> Date
    let logger: Logger

    init(settings: AlertSettings, store: any HealthStore, clock: @escaping @Sendable () -> Date, logger: Logger) {
        self.settings = settings
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        self.evaluation = AlertEvaluation(store: store, calendar: calendar)
        self.book = AlertStateBook(file: settings.stateFile)
        self.clock = clock
        self.logger = logger
    }

    func run() async throws {
        // Ends when the server stops: its graceful shutdown cancels the wait and the deliveries.
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { deliveries in
                while !Task.isCancelled {
                    for (rule, finding, user) in await check() {
                        deliveries.addTask { await deliver(rule: rule, finding: finding, user: user) }
                    }
                    do { try await Task.sleep(for: settings.interval) } catch { break }
                }
                deliveries.cancelAll()
            }
        }
    }

    /// One round: every rule judged, the states written; answers the episodes that start now.
    func check() async -> [(AlertRule, AlertFinding, String)] {
        var starting: [(AlertRule, AlertFinding, String)] = []
        let now = clock()
        var results: [(rule: AlertRule, finding: AlertFinding?)] = []
        for rule in settings.rules {
            do {
                let user = try await evaluation.user(of: rule)
                let finding = try await evaluation.finding(of: rule, for: user, now: now)
                results.append((rule, finding))
                if let finding, await book.states.rules[rule.name]?.firing != true {
                    starting.append((rule, finding, user.name))
                    logger.info("alert \(rule.name): \(finding.title); sending to \(rule.destination.shownPlace)")
                }
            } catch {
                logger.warning("alert \(rule.name): cannot be checked: \(error)")
            }
        }
        do {
            try await book.update { states in
                states.rounds += 1
                for (rule, finding) in results {
                    var state = states.rules[rule.name] ?? AlertStates.Rule()
                    if let finding, !state.firing {
                        state.firing = true
                        state.since = now
                        state.lastTitle = finding.title
                    } else if finding == nil, state.firing {
                        state.firing = false
                        state.since = now
                    }
                    state.lastChecked = now
                    states.rules[rule.name] = state
                }
            }
        } catch {
            logger.warning("alerts: cannot write \(settings.stateFile.path): \(error)")
        }
        return starting
    }

    /// Sends one episode, trying again after each of `retryDelays` while it fails.
    func deliver(rule: AlertRule, finding: AlertFinding, user: String) async {
        var delays = settings.retryDelays.makeIterator()
        while true {
            do {
                try await settings.delivery.send(rule: rule, finding: finding, user: user, now: clock())
                try? await book.update { states in
                    states.rules[rule.name, default: AlertStates.Rule()].lastSent = clock()
                    states.rules[rule.name, default: AlertStates.Rule()].sent += 1
                    states.rules[rule.name, default: AlertStates.Rule()].lastProblem = nil
                }
                logger.info("alert \(rule.name): sent to \(rule.destination.shownPlace)")
                return
            } catch {
                let problem = "\(error)"
                try? await book.update { states in states.rules[rule.name, default: AlertStates.Rule()].lastProblem = problem }
                guard let delay = delays.next() else {
                    logger.warning("alert \(rule.name): not delivered to \(rule.destination.shownPlace) after every retry: \(problem)")
                    return
                }
                logger.warning("alert \(rule.name): \(problem); trying again in \(delay)")
                do { try await Task.sleep(for: delay) } catch { return }
            }
        }
    }
}
