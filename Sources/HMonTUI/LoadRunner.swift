import HealthViewModels

/// Runs the loads of commands as tasks and posts each answer, as a `Loaded` message, to `post`. A load
/// with the same cancel key as one still running cancels it (its late answer is then dropped by its
/// model). Counts what is in flight until the dashboard has received it, so `isBusy` covers the whole trip.
@MainActor
final class LoadRunner {
    private var running: [String: Task<Void, Never>] = [:]
    private(set) var inFlight = 0
    private let post: @Sendable (Loaded) -> Void

    init(post: @escaping @Sendable (Loaded) -> Void) {
        self.post = post
    }

    var isBusy: Bool { inFlight > 0 }

    func run(_ command: Command) {
        for load in command.loads {
            if let key = load.cancelKey { running[key]?.cancel() }
            inFlight += 1
            let post = post
            // Detached: the service is called off the main actor, which stays free for keys and frames.
            let task = Task.detached(priority: .userInitiated) {
                post(await load.run())
            }
            if let key = load.cancelKey { running[key] = task }
        }
    }

    /// The dashboard received an answer: its load no longer counts as in flight.
    func received() {
        inFlight -= 1
    }
}
