/// What a load answers: the model that asked, and the thing it asked for ("day 2026-11-19", a device id).
/// Results carry it back so a log or a test can tell them apart.
public struct LoadTag: Hashable, Sendable, CustomStringConvertible {
    public var model: String
    public var subject: String

    public init(model: String, subject: String) {
        self.model = model
        self.subject = subject
    }

    public var description: String { "\(model): \(subject)" }
}

/// Work a view model asks for, in bubbletea's shape: a command that runs off the main actor and returns a
/// message (`Loaded`). The view model's state does not change while it runs; the event loop applies the
/// message on the main actor when it comes back.
public struct Load: Sendable {
    public let tag: LoadTag
    /// The request's number within its slot; only the newest one's answer is applied.
    public let generation: Int
    /// Loads with the same key replace each other: a new one cancels the one still running.
    /// Nil for writes, which are never cancelled (a half-sent reading may still land).
    public let cancelKey: String?
    let work: @Sendable () async -> Loaded

    /// Runs the work (off the main actor when called from it) and returns its message.
    public func run() async -> Loaded { await work() }
}

/// A finished load, as an event for the loop. `deliver()` applies it to its model if it still answers the
/// newest request, and returns what the model wants to do next (more loads), else drops it.
public struct Loaded: Sendable {
    public let tag: LoadTag
    public let generation: Int
    let apply: @MainActor @Sendable () -> Command

    @MainActor
    public func deliver() -> Command { apply() }
}

/// What a view model's action asks the runtime to do: nothing, or some loads to run.
public struct Command: Sendable {
    public var loads: [Load]

    public init(_ loads: [Load] = []) { self.loads = loads }
    public init(_ load: Load?) { self.loads = load.map { [$0] } ?? [] }

    public static let none = Command()

    public var isEmpty: Bool { loads.isEmpty }

    public static func + (lhs: Command, rhs: Command) -> Command { Command(lhs.loads + rhs.loads) }

    /// Runs the loads one after another on this task and applies their messages, then the loads those
    /// start, until nothing is left: what the event loop does, for callers without one (tests,
    /// `hmon snapshot`, the first frame).
    @MainActor
    public func complete() async {
        var pending = loads
        while !pending.isEmpty {
            let load = pending.removeFirst()
            let loaded = await load.run()
            pending += loaded.deliver().loads
        }
    }
}

/// One view model's line of loads. Each request gets the next generation; its answer is applied only if no
/// newer request was made since, so a late answer to an old request (← pressed twice on a slow server) is
/// dropped. `isRunning` stays true until the newest request has been answered.
@MainActor
public final class LoadSlot {
    public let model: String
    public private(set) var generation = 0
    public private(set) var isRunning = false
    /// How many answers arrived too late and were dropped (for tests and diagnostics).
    public private(set) var dropped = 0

    public init(model: String) { self.model = model }

    /// A load of `fetch` whose result `apply` turns into state. `apply` runs on the main actor only for the
    /// newest request; what it returns is run next.
    public func load<Value: Sendable>(_ subject: String,
                                      _ fetch: @escaping @Sendable () async throws -> Value,
                                      apply: @escaping @MainActor (Result<Value, any Error>) -> Command) -> Load {
        generation += 1
        isRunning = true
        let generation = self.generation
        let tag = LoadTag(model: model, subject: subject)
        let key = model
        return Load(tag: tag, generation: generation, cancelKey: key) {
            let result: Result<Value, any Error>
            do { result = .success(try await fetch()) } catch { result = .failure(error) }
            return Loaded(tag: tag, generation: generation) { [weak self] in
                guard let self else { return .none }
                guard generation == self.generation else {
                    self.dropped += 1
                    return .none
                }
                self.isRunning = false
                return apply(result)
            }
        }
    }

    /// Forgets any request in flight: its answer will be dropped (the model was reset, e.g. sign-out).
    public func invalidate() {
        generation += 1
        isRunning = false
    }
}

/// A write (a reading, a device, a sign-in): never cancelled and always applied, one at a time per model.
@MainActor
public final class WriteSlot {
    public let model: String
    public private(set) var pending = 0
    public var isRunning: Bool { pending > 0 }
    private var serial = 0

    public init(model: String) { self.model = model }

    public func write<Value: Sendable>(_ subject: String,
                                       _ perform: @escaping @Sendable () async throws -> Value,
                                       apply: @escaping @MainActor (Result<Value, any Error>) -> Command) -> Load {
        pending += 1
        serial += 1
        let tag = LoadTag(model: model, subject: subject)
        let serial = self.serial
        return Load(tag: tag, generation: serial, cancelKey: nil) {
            let result: Result<Value, any Error>
            do { result = .success(try await perform()) } catch { result = .failure(error) }
            return Loaded(tag: tag, generation: serial) { [weak self] in
                self?.pending -= 1
                return apply(result)
            }
        }
    }
}
