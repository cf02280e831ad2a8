import Foundation
import HealthCore
import HealthModel
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A server started in-process (tests, and anything that embeds the server): `start` returns once it
/// accepts connections, with the port it bound; `stop` shuts it down gracefully and waits.
public final class RunningServer: Sendable {
    public let port: Int
    /// `http://<host>:<port>`.
    public let url: URL
    private let group: ServiceGroup
    private let task: Task<Void, Error>

    private init(port: Int, host: String, group: ServiceGroup, task: Task<Void, Error>) {
        self.port = port
        self.url = URL(string: "http://\(host):\(port)")!
        self.group = group
        self.task = task
    }

    /// Starts the server over `store` (pass port 0 for a free port). Signals are left alone: the caller
    /// stops it with `stop()`. Without a logger nothing is logged.
    public static func start(store: any HealthStore, configuration: ServerConfiguration, logger: Logger? = nil) async throws -> RunningServer {
        let logger = logger ?? Logger(label: "hmon.server", factory: { _ in SwiftLogNoOpLogHandler() })
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let app = HMonServer.application(store: store, configuration: configuration, logger: logger) { port in
            portSink.yield(port)
            portSink.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let run: @Sendable () async throws -> Void = {
            defer { portSink.finish() }
            try await group.run()
        }
        // On threads of its own, so the process's other work cannot hold its answers up (`ServerThreads`).
        let task: Task<Void, Error>
        if #available(macOS 15, *) {
            task = Task(executorPreference: ServerThreads.shared, operation: run)
        } else {
            task = Task(operation: run)
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            // The group ended before the server was up: surface why (a port in use, say).
            try await task.value
            throw HealthError.serverUnreachable("the server stopped before it started")
        }
        return RunningServer(port: port, host: configuration.host, group: group, task: task)
    }

    /// Stops accepting connections, lets requests in flight finish, and waits until the server is down.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
