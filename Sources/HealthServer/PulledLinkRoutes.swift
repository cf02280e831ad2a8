import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import Hummingbird
import NIOCore

/// The routes every pulled source's link has, whatever the source:
/// - `GET /KIND/{secret}?code=…&state=…`: where the source sends the person back after they allowed hmon
///   to read their data; the server trades the code for tokens and keeps them in the link's file.
/// - `POST /v1.1/hmon/KIND/poll`: reads the caller's links now (the dashboard's R), answering what was added.
///
/// - `GET|HEAD|POST /KIND/{secret}` as the source has them (`ServedPulledSource.callbackMethods`): its
///   notifications and its checks of the callback, answered as the source says (`ServedPulledSource.answer`).
///
/// A wrong or revoked secret is a 404 that does nothing.
struct PulledLinkRoutes<Source: ServedPulledSource> {
    typealias Link = Source.Link

    /// The path prefix, also what the request log shows in place of the secret.
    static var prefix: String { Source.routePrefix }

    let store: any PushLinkStore
    let polling: PulledPolling<Source>
    let configuration: ServerConfiguration
    var sync: PulledSync<Source> { polling.sync }

    private var sourceName: String { Link.sourceName }
    private var addLink: String { "`hmon link add \(Link.kindName)`" }

    /// `GET /KIND/{secret}` (the authorization's return, or what the source asks there), and the source's
    /// other methods at that address.
    func addCallbackRoutes(to router: Router<ServerContext>) {
        let routes = self
        let path = RouterPath(Self.prefix + ":secret")
        router.get(path) { request, context -> Response in
            let secret = context.parameters.get("secret") ?? ""
            let query = try? RequestInput.query(request)
            if Source.isAuthorizationReturn(query) { return try await routes.authorized(request, secret: secret) }
            return try await routes.answer(PulledCallback(method: .get, query: query), secret: secret)
        }
        for method in Source.callbackMethods {
            switch method {
            case .get:
                break
            case .head:
                router.head(path) { request, context -> Response in
                    try await routes.answer(PulledCallback(method: .head, query: try? RequestInput.query(request)),
                                            secret: context.parameters.get("secret") ?? "")
                }
            case .post:
                router.post(path) { request, context -> Response in
                    guard let link = try await routes.link(secret: context.parameters.get("secret") ?? "") else { throw routes.notALink }
                    var callback = PulledCallback(method: .post, query: try? RequestInput.query(request))
                    switch Source.callbackBody {
                    case .form: callback.form = try await RequestInput.form(request)
                    case .bytes: callback.body = try await RequestInput.bytes(request)
                    }
                    return try await routes.respond(Source.answer(callback, link: link), link: link)
                }
            }
        }
    }

    /// The source's answer to a request at the address of the link whose secret it names.
    private func answer(_ callback: PulledCallback, secret: String) async throws -> Response {
        guard let link = try await link(secret: secret) else { throw notALink }
        return try await respond(Source.answer(callback, link: link), link: link)
    }

    private func respond(_ answer: PulledCallback.Answer, link: Link) async throws -> Response {
        switch answer {
        case .acknowledged:
            return Response(status: .ok)
        case .read:
            // A burst of notifications for one link is read by at most two fetches (`PulledSync.schedule`).
            let polling = self.polling
            _ = await sync.schedule(linkID: link.linkID) { polling.report([$0], asked: true) }
            return Response(status: .ok)
        case .json(let object):
            return JSONBody.response(object)
        case .refused(let status, let message):
            throw APIError(HTTPResponse.Status(code: status), code: status, message: message)
        }
    }

    /// `POST /v1.1/hmon/KIND/poll`.
    func addPollRoute(to router: Router<ServerContext>) {
        router.post(RouterPath(Source.pollPath)) { _, context -> Response in
            guard let principal = context.principal else { throw APIError.unauthorized }
            guard let userID = principal.userID, principal.scopes.contains(Scope.read) else { throw APIError.forbidden }
            return JSONBody.response(try await Self.poll(polling, userID: userID))
        }
    }

    /// Reads the user's links now. Subscriptions refused earlier (the server was not reachable yet), missing
    /// or about to expire are seen to first.
    static func poll(_ polling: PulledPolling<Source>, userID: String) async throws -> Source.PollAnswer {
        Source.pollAnswer(try await fetches(polling, userID: userID))
    }

    /// What reading the user's links now brought, each read logged.
    static func fetches(_ polling: PulledPolling<Source>, userID: String) async throws -> [Source.Fetch] {
        await polling.subscribe()
        let fetches = try await polling.sync.fetch(userID: userID)
        polling.report(fetches, asked: true)
        return fetches
    }

    var notALink: APIError {
        APIError(.notFound, code: 404, message: "This is not an hmon \(sourceName) link (or it was revoked): run \(addLink) for a new one.")
    }

    /// The link whose secret is in the path, noting its use; nil for an unknown or revoked one.
    func link(secret: String) async throws -> Link? {
        guard try await store.pushLinkUser(secret: secret, kind: Source.linkKind, now: configuration.clock()) != nil else { return nil }
        let path = Self.prefix + secret
        for id in try await sync.linkIDs() {
            if let link = try sync.files.load(linkID: id), link.callbackPath == path { return link }
        }
        return nil
    }

    /// The end of the authorization: the code is traded for tokens, which only the link's file keeps.
    func authorized(_ request: Request, secret: String) async throws -> Response {
        guard var link = try await link(secret: secret) else {
            return BrowserPage.response(.notFound, "Not found", "This is not an hmon \(sourceName) link (or it was revoked): run \(addLink) for a new one.")
        }
        guard let query = try? RequestInput.query(request) else {
            return BrowserPage.response(.badRequest, "Not linked",
                        "This address holds a control character (such as %00) in its query: open the link \(sourceName) gave again.")
        }
        guard let code = query["code"], !code.isEmpty else {
            if query["error"] != nil {
                return BrowserPage.response(.ok, "Not linked", "\(sourceName) did not authorize hmon. Run \(addLink) again to retry.")
            }
            return BrowserPage.response(.ok, "hmon", "This is the address of an hmon \(sourceName) link.")
        }
        guard let expected = link.pendingState, query["state"] == expected else {
            return BrowserPage.response(.badRequest, "Not linked",
                        "This authorization is not the one \(addLink) started (or it was used already): run it again.")
        }
        // A person reads this in their browser: every failure is this route's page, never the API's JSON.
        do {
            link.tokens = try await sync.api.requestToken(code: code, clientID: link.clientID, clientSecret: link.clientSecret,
                                                          redirectURI: link.redirectURI, now: configuration.clock())
        } catch let error as Source.Refusal {
            return BrowserPage.response(.badGateway, "Not linked", "\(error). Run \(addLink) again.")
        } catch {
            let reason = TextRules.replacingUnsafe(in: String(String(describing: error).prefix(200))).text
            return BrowserPage.response(.badGateway, "Not linked",
                        "hmon serve cannot reach \(sourceName) (\(reason)). Check that the server can reach the internet, then run \(addLink) again.")
        }
        link.pendingState = nil
        do {
            try sync.files.save(link)
        } catch {
            return BrowserPage.response(.internalServerError, "Not linked",
                        "hmon serve cannot save the link's file (\(error)). Check the data folder's space and permissions, then run \(addLink) again.")
        }
        let (polling, linkID) = (self.polling, link.linkID)
        Task {
            if Source.subscribesOnceLinked { await polling.subscribe() }
            await polling.fetch(linkID: linkID)
        }
        return BrowserPage.response(.ok, "Linked", Source.linkedText)
    }
}
