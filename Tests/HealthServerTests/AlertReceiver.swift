import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import TestSupport

/// A loopback stand-in for an ntfy server or a webhook (neither reachable from the tests): it keeps every
/// POST it gets, path, headers and body, and answers 200 — or 500 on a path under `/broken`, for a
/// delivery that fails.
///
/// Why plain NIO rather than a Hummingbird router like the other fixtures: Hummingbird answers on tasks
/// of the test process's task pool (two threads), which a busy parallel run can hold for longer than an
/// `hmon alert test` child waits; NIO's channel handlers answer on the event loop's own thread.
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
    private let channel: any Channel

    private init(url: URL, received: FixtureLock<[Received]>, channel: any Channel) {
        self.url = url
        self.received = received
        self.channel = channel
    }

    deinit { channel.close(promise: nil) }

    var all: [Received] { received.withLock { $0 } }

    static func start() async throws -> AlertReceiver {
        let received = FixtureLock<[Received]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.pipeline.configureHTTPServerPipeline().flatMap {
                    child.pipeline.addHandler(Keeper(received: received))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        return AlertReceiver(url: URL(string: "http://127.0.0.1:\(port)")!, received: received, channel: channel)
    }

    /// Collects one request's head and body, keeps it, and answers.
    private final class Keeper: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let received: FixtureLock<[Received]>
        private var head: HTTPRequestHead?
        private var body = Data()

        init(received: FixtureLock<[Received]>) { self.received = received }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = Data()
            case .body(var buffer):
                body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
            case .end:
                guard let head else { return }
                let path = String(head.uri.prefix { $0 != "?" })
                var headers: [String: String] = [:]
                for (name, value) in head.headers { headers[name] = value }
                received.withLock { $0.append(Received(path: path, headers: headers, body: body)) }
                var answer = HTTPHeaders([("Content-Length", "0")])
                if !head.isKeepAlive { answer.add(name: "Connection", value: "close") }
                let status: HTTPResponseStatus = path.hasPrefix("/broken") ? .internalServerError : .ok
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: answer))), promise: nil)
                let keepAlive = head.isKeepAlive
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if !keepAlive { channel.close(promise: nil) }
                }
                self.head = nil
            }
        }
    }
}
