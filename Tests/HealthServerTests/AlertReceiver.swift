import Foundation
import HealthCore
import Hummingbird

/// A loopback stand-in for an ntfy server or a webhook (neither reachable from the tests): it keeps every
/// POST it gets, path, headers and body, and answers 200 — or 500 on a path under `/broken`, for a
/// delivery that fails.
final class AlertReceiver: Sendable {
    struct Received: Sendable {
        var path: String
        var headers: [String: String]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let url: URL
    private let received: FixtureLock<[Received]>
    private let task: Task<Void, Error>

    private init(url: URL, received: FixtureLock<[Received]>, task: Task<Void, Error>) {
        self.url = url
        self.received = received
        self.task = task
    }

    deinit { task.cancel() }

    var all: [Received] { received.withLock { $0 } }

    static func start() async throws -> AlertReceiver {
        let received = FixtureLock<[Received]>([])
        let router = Router()
        router.post("**") { request, _ -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 20))
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let path = request.uri.path
            received.withLock { $0.append(Received(path: path, headers: headers, body: body)) }
            return Response(status: path.hasPrefix("/broken") ? .internalServerError : .ok)
        }
        let (url, task) = try await FixtureServer.start(router, name: "alert receiver")
        return AlertReceiver(url: url, received: received, task: task)
    }
}
