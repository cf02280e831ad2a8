import Foundation
import Logging
import MCP

/// The stdio transport, counting the requests it reads and the answers it writes, so `hmon mcp` ends only
/// once every request read before the end of its input is answered. The SDK's server handles each request in
/// a task of its own and its loop ends at the end of input, so a client that writes its requests and closes
/// (`printf … | hmon mcp`) would otherwise lose the answers still being computed.
actor AnsweringTransport: Transport {
    private let inner: StdioTransport
    private var asked = 0
    private var answered = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    nonisolated var logger: Logger { inner.logger }

    init(_ inner: StdioTransport) {
        self.inner = inner
    }

    func connect() async throws { try await inner.connect() }

    func disconnect() async { await inner.disconnect() }

    func send(_ data: Data) async throws {
        try await inner.send(data)
        answered += Self.count(in: data) { $0["id"] != nil && $0["method"] == nil }
        settle()
    }

    func receive() -> AsyncThrowingStream<Data, Swift.Error> {
        let (stream, continuation) = AsyncThrowingStream<Data, Swift.Error>.makeStream()
        let source = inner
        let task = Task {
            do {
                for try await data in await source.receive() {
                    self.noteAsked(Self.count(in: data) { $0["id"] != nil && $0["method"] != nil })
                    continuation.yield(data)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Returns once every request read so far has its answer written.
    func answeredAll() async {
        if answered >= asked { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func noteAsked(_ count: Int) {
        asked += count
    }

    private func settle() {
        guard answered >= asked else { return }
        let ready = waiting
        waiting = []
        for continuation in ready { continuation.resume() }
    }

    /// How many JSON-RPC messages in `data` (one, or a batch) `matches` holds for.
    private static func count(in data: Data, _ matches: ([String: Any]) -> Bool) -> Int {
        switch try? JSONSerialization.jsonObject(with: data) {
        case let message as [String: Any]: matches(message) ? 1 : 0
        case let batch as [[String: Any]]: batch.count(where: matches)
        default: 0
        }
    }
}
