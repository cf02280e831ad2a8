import Foundation
import HTTPTypes
import HealthCore
import HealthModel
import Hummingbird
import NIOCore
import ServiceLifecycle

/// hmon extension: `GET /v1.1/hmon/changes`, the change feed a remote dashboard holds open (server-sent
/// events, `docs/server.md`). With a bearer token with `read`, it answers `text/event-stream`:
///
///     retry: 1000
///     event: ready
///     data: {"token":41,"heartbeat":15}
///
///     event: change
///     data: {"token":42}
///
///     : heartbeat
///
/// `ready` first, with the store's change token and the seconds between heartbeats; a `change` whenever
/// the user's data may have changed; a comment line every heartbeat while nothing does. The stream stays
/// open until the client goes, the server stops (a graceful stop ends it, so the stop never waits on it) or
/// its token stops working (revoked, signed out, a password change, expired: `FeedCredential`).
/// A user may hold `maxFeedsPerUser` streams at once; one more is a 429.
struct ChangeFeedRoute {
    let feed: ChangeFeed

    func add(to router: Router<ServerContext>) {
        router.get("/v1.1/hmon/changes") { request, context in try await open(request, context) }
    }

    private func open(_ request: Request, _ context: ServerContext) async throws -> Response {
        guard let principal = context.principal, let (secret, personal) = AuthenticationMiddleware.token(request) else {
            throw APIError.unauthorized
        }
        guard let userID = principal.userID, principal.scopes.contains(Scope.read) else { throw APIError.forbidden }
        let credential = FeedCredential(token: secret, isPersonal: personal, expiresAt: principal.expiresAt)
        let token = try await feed.store.changeToken()
        var subscription = feed.subscribe(userID: userID, credential: credential)
        if case .full = subscription {
            // Some of them may be dashboards that went away, not yet noticed: writing lets those go. At least
            // twice: the first write to a connection its peer closed may still be taken; the reset it brings
            // fails the next. Up to half a second in all, for a busy machine's event loops.
            for attempt in 0..<10 {
                feed.sendHeartbeat(to: userID)
                try await Task.sleep(for: .milliseconds(50))
                if attempt >= 1 {
                    subscription = feed.subscribe(userID: userID, credential: credential)
                    if case .open = subscription { break }
                }
            }
        }
        guard case .open(let id, let messages) = subscription else {
            throw APIError.tryLater(.tooManyRequests, seconds: 5,
                                    message: "This account already has \(feed.maxPerUser) dashboards following its changes: close one")
        }
        feed.told(token: token)
        let milliseconds = feed.heartbeat.components.seconds * 1000 + feed.heartbeat.components.attoseconds / 1_000_000_000_000_000
        let seconds = milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
        let first = "retry: 1000\nevent: ready\ndata: {\"token\":\(token),\"heartbeat\":\(seconds)}\n\n"
        let feed = self.feed
        let body = ResponseBody { writer in
            defer { feed.unsubscribe(id) }
            try await writer.write(ByteBuffer(string: first))
            // A graceful stop ends the loop (and so the answer): the server's stop waits for answers in flight.
            for await message in messages.cancelOnGracefulShutdown() {
                try await writer.write(ByteBuffer(string: Self.text(of: message)))
            }
            try await writer.finish(nil)
        }
        var headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"]
        // nginx buffers answers unless told not to; a buffered stream would hold every event back.
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        return Response(status: .ok, headers: headers, body: body)
    }

    static func text(of message: ChangeFeed.Message) -> String {
        switch message {
        case .change(let token, nil): "event: change\ndata: {\"token\":\(token)}\n\n"
        case .change(let token, let kinds?):
            "event: change\ndata: {\"token\":\(token),\"kinds\":[\(kinds.sorted().map { "\"\($0.rawValue)\"" }.joined(separator: ","))]}\n\n"
        case .heartbeat: ": heartbeat\n\n"
        }
    }
}
