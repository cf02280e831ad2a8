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

/// What came back from a load: the value it fetched, or why it could not.
public enum LoadOutcome: Sendable {
    case value(any Sendable)
    case failure(any Error)
}

/// A finished load, as a message for the loop: which request it answers, and what came back, as a value
/// that can be logged, built in a test and applied again. `deliver()` hands it to the slot that made the
/// request, whose one `update` applies it if it still answers the newest request, else drops it.
public struct Loaded: Sendable, CustomStringConvertible {
    public let tag: LoadTag
    public let generation: Int
    public let outcome: LoadOutcome
    /// The slot that made the request and applies its answer.
    public let recipient: any LoadRecipient

    public init(tag: LoadTag, generation: Int, outcome: LoadOutcome, recipient: any LoadRecipient) {
        self.tag = tag
        self.generation = generation
        self.outcome = outcome
        self.recipient = recipient
    }

    /// Applies the message; returns what the model wants to do next (more loads).
    @MainActor
    public func deliver() -> Command { recipient.update(self) }

    public var description: String {
        switch outcome {
        case .value(let value): "\(tag) #\(generation): \(type(of: value))"
        case .failure(let error): "\(tag) #\(generation): failed: \(error)"
        }
    }
}

/// Who applies a load's answer: the slot that made the request.
@MainActor
public protocol LoadRecipient: AnyObject, Sendable {
    func update(_ loaded: Loaded) -> Command
}

/// How a slot turns an outcome back into the value its request fetched, for the request's `apply`.
@MainActor
private func applying<Value: Sendable>(_ apply: @escaping @MainActor (Result<Value, any Error>) -> Command)
    -> @MainActor (LoadOutcome) -> Command {
    { outcome in
        switch outcome {
        case .value(let value as Value): apply(.success(value))
        case .value(let other): apply(.failure(LoadMismatch(expected: "\(Value.self)", got: "\(type(of: other))")))
        case .failure(let error): apply(.failure(error))
        }
    }
}

/// A message whose value is not what its request fetches (only a hand-built one can be).
public struct LoadMismatch: Error, CustomStringConvertible {
    public var expected: String
    public var got: String
    public var description: String { "a load that fetches \(expected) was answered with \(got)" }
}

/// The outcome of running `work`.
private func outcome(of work: @Sendable () async throws -> some Sendable) async -> LoadOutcome {
    do { return .value(try await work()) } catch { return .failure(error) }
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
public final class LoadSlot: LoadRecipient {
    public let model: String
    public private(set) var generation = 0
    public private(set) var isRunning = false
    /// How many answers arrived too late and were dropped (for tests and diagnostics).
    public private(set) var dropped = 0
    /// How the newest request's answer becomes state.
    private var pending: (generation: Int, apply: @MainActor (LoadOutcome) -> Command)?

    public init(model: String) { self.model = model }

    /// A load of `fetch` whose result `apply` turns into state. `apply` runs on the main actor only for the
    /// newest request; what it returns is run next.
    public func load<Value: Sendable>(_ subject: String,
                                      _ fetch: @escaping @Sendable () async throws -> Value,
                                      apply: @escaping @MainActor (Result<Value, any Error>) -> Command) -> Load {
        generation += 1
        isRunning = true
        let generation = self.generation
        pending = (generation, applying(apply))
        let tag = LoadTag(model: model, subject: subject)
        return Load(tag: tag, generation: generation, cancelKey: model) { [self] in
            Loaded(tag: tag, generation: generation, outcome: await outcome(of: fetch), recipient: self)
        }
    }

    /// The one place a slot's answers are applied: the newest request's, once; any other is dropped.
    public func update(_ loaded: Loaded) -> Command {
        guard let pending, pending.generation == loaded.generation, loaded.generation == generation else {
            dropped += 1
            return .none
        }
        self.pending = nil
        isRunning = false
        return pending.apply(loaded.outcome)
    }

    /// Forgets any request in flight: its answer will be dropped (the model was reset, e.g. sign-out).
    public func invalidate() {
        generation += 1
        isRunning = false
        pending = nil
    }
}

/// A write (a reading, a device, a sign-in): never cancelled and always applied, one at a time per model.
@MainActor
public final class WriteSlot: LoadRecipient {
    public let model: String
    public var pending: Int { handlers.count }
    public var isRunning: Bool { !handlers.isEmpty }
    private var serial = 0
    /// How each write's answer becomes state, by the write's serial number.
    private var handlers: [Int: @MainActor (LoadOutcome) -> Command] = [:]

    public init(model: String) { self.model = model }

    public func write<Value: Sendable>(_ subject: String,
                                       _ perform: @escaping @Sendable () async throws -> Value,
                                       apply: @escaping @MainActor (Result<Value, any Error>) -> Command) -> Load {
        serial += 1
        let tag = LoadTag(model: model, subject: subject)
        let serial = self.serial
        handlers[serial] = applying(apply)
        return Load(tag: tag, generation: serial, cancelKey: nil) { [self] in
            Loaded(tag: tag, generation: serial, outcome: await outcome(of: perform), recipient: self)
        }
    }

    /// Applies a write's answer, once.
    public func update(_ loaded: Loaded) -> Command {
        guard let apply = handlers.removeValue(forKey: loaded.generation) else { return .none }
        return apply(loaded.outcome)
    }
}
