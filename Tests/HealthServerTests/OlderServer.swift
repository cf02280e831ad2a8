import Foundation
import Hummingbird
import NIOCore

/// A real `hmon serve` as a server from before `POST /v1.1/hmon/links/poll` answers: every request is passed
/// on to it, except that route, which is answered 404 as the older server had none. The poll routes asked are
/// noted in order, so a test sees which sources a client asked.
final class OlderServer: Sendable {
    let url: URL
    private let asked: FixtureLock<[String]>
    private let task: Task<Void, Error>

    private init(url: URL, asked: FixtureLock<[String]>, task: Task<Void, Error>) {
        self.url = url
        self.asked = asked
        self.task = task
    }

    deinit { task.cancel() }

    func stop() { task.cancel() }

    /// The paths of the poll requests it was sent (`…/poll`), in order.
    var polls: [String] { asked.withLock { $0 } }

    static func start(before server: URL) async throws -> OlderServer {
        let asked = FixtureLock<[String]>([])
        let router = Router()
        router.add(middleware: PassOn(server: server, asked: asked))
        let (url, task) = try await FixtureServer.start(router, name: "older server")
        return OlderServer(url: url, asked: asked, task: task)
    }
}

/// Passes each request on to the real server with the headers an hmon client sends, and its answer back.
private struct PassOn: RouterMiddleware {
    typealias Context = BasicRequestContext
    let server: URL
    let asked: FixtureLock<[String]>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path.hasSuffix("/poll") { asked.withLock { $0.append(path) } }
        if path == "/v1.1/hmon/links/poll" { return Response(status: .notFound) }
        var headers: [String: String] = [:]
        if let authorization = request.headers[.authorization] { headers["Authorization"] = authorization }
        if let type = request.headers[.contentType] { headers["Content-Type"] = type }
        if let accept = request.headers[.accept] { headers["Accept"] = accept }
        let body = try await request.body.collect(upTo: 1 << 20)
        let reply = try await RawHTTP.send(request.method.rawValue, server.absoluteString + request.uri.description, headers: headers,
                                           body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil)
        var fields = HTTPFields()
        if let type = reply.header("Content-Type") { fields[.contentType] = type }
        if let location = reply.header("Location") { fields[.location] = location }
        return Response(status: .init(code: reply.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
    }
}
