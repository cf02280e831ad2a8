import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import Hummingbird
import NIOCore

/// The Withings link's routes (`hmon link add withings`):
/// - `GET /withings/{secret}?code=…&state=…`: where Withings sends the person back after they allowed hmon
///   to read their measures; the server trades the code for tokens and keeps them in the link's file.
/// - `HEAD /withings/{secret}`: Withings' check of the callback URL before it subscribes it: 200.
/// - `POST /withings/{secret}`: a notification (`userid=…&appli=1&startdate=…&enddate=…`), answered 200 at
///   once; the link's new measure groups are fetched right after.
/// - `POST /v1.1/hmon/withings/poll`: fetches the caller's links now (the dashboard's R), answering what was added.
///
/// A wrong or revoked secret is a 404 that does nothing.
struct WithingsRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = "/withings/"

    let store: any PushLinkStore
    let polling: WithingsPolling
    let configuration: ServerConfiguration
    var sync: WithingsSync { polling.sync }

    func add(to router: Router<ServerContext>) {
        router.head("/withings/:secret") { _, context -> Response in
            guard try await link(secret: context.parameters.get("secret") ?? "") != nil else { throw notALink }
            return Response(status: .ok)
        }
        router.get("/withings/:secret") { request, context -> Response in
            try await authorized(request, secret: context.parameters.get("secret") ?? "")
        }
        router.post("/withings/:secret") { request, context -> Response in
            guard let link = try await link(secret: context.parameters.get("secret") ?? "") else { throw notALink }
            let form = try await RequestInput.form(request)
            // Only a weight notification of this link's Withings account is acted on; any other is
            // acknowledged all the same, or Withings would retry it.
            // A burst of notifications for one link is read by at most two fetches (`WithingsSync.schedule`).
            if form["appli"] == "1", let userid = form["userid"], userid == link.tokens?.userid {
                let polling = self.polling
                _ = await sync.schedule(linkID: link.linkID) { polling.report([$0], asked: true) }
            }
            return Response(status: .ok)
        }
        router.post("/v1.1/hmon/withings/poll") { _, context -> Response in
            guard let principal = context.principal else { throw APIError.unauthorized }
            guard let userID = principal.userID, principal.scopes.contains(Scope.read) else { throw APIError.forbidden }
            return JSONBody.response(try await Self.poll(polling, userID: userID))
        }
    }

    /// Reads the user's links now. A subscription refused earlier (the server was not reachable yet) is
    /// tried again first.
    static func poll(_ polling: WithingsPolling, userID: String) async throws -> WithingsPollAnswer {
        await polling.subscribe()
        let fetches = try await polling.sync.fetch(userID: userID)
        polling.report(fetches, asked: true)
        return WithingsPollAnswer(fetches)
    }

    private var notALink: APIError {
        APIError(.notFound, code: 404, message: "This is not an hmon Withings link (or it was revoked): run `hmon link add withings` for a new one.")
    }

    /// The link whose secret is in the path, noting its use; nil for an unknown or revoked one.
    private func link(secret: String) async throws -> WithingsLink? {
        guard try await store.pushLinkUser(secret: secret, kind: .withings, now: configuration.clock()) != nil else { return nil }
        let path = Self.prefix + secret
        for id in try await sync.linkIDs() {
            if let link = try sync.files.load(linkID: id), link.callbackPath == path { return link }
        }
        return nil
    }

    /// The end of the authorization: the code is traded for tokens, which only the link's file keeps.
    private func authorized(_ request: Request, secret: String) async throws -> Response {
        guard var link = try await link(secret: secret) else {
            return page(.notFound, "Not found", "This is not an hmon Withings link (or it was revoked): run `hmon link add withings` for a new one.")
        }
        guard let query = try? RequestInput.query(request) else {
            return page(.badRequest, "Not linked", "This address holds a control character (such as %00) in its query: open the link Withings gave again.")
        }
        guard let code = query["code"], !code.isEmpty else {
            if query["error"] != nil {
                return page(.ok, "Not linked", "Withings did not authorize hmon. Run `hmon link add withings` again to retry.")
            }
            return page(.ok, "hmon", "This is the address of an hmon Withings link.")
        }
        guard let expected = link.pendingState, query["state"] == expected else {
            return page(.badRequest, "Not linked",
                        "This authorization is not the one `hmon link add withings` started (or it was used already): run it again.")
        }
        // A person reads this in their browser: every failure is this route's page, never the API's JSON.
        do {
            link.tokens = try await sync.api.requestToken(code: code, clientID: link.clientID, clientSecret: link.clientSecret,
                                                          redirectURI: link.redirectURI, now: configuration.clock())
        } catch let error as WithingsError {
            return page(.badGateway, "Not linked", "\(error). Run `hmon link add withings` again.")
        } catch {
            let reason = TextRules.replacingUnsafe(in: String(String(describing: error).prefix(200))).text
            return page(.badGateway, "Not linked",
                        "hmon serve cannot reach Withings (\(reason)). Check that the server can reach the internet, then run `hmon link add withings` again.")
        }
        link.pendingState = nil
        do {
            try sync.files.save(link)
        } catch {
            return page(.internalServerError, "Not linked",
                        "hmon serve cannot save the link's file (\(error)). Check the data folder's space and permissions, then run `hmon link add withings` again.")
        }
        let (polling, linkID) = (self.polling, link.linkID)
        Task { await polling.fetch(linkID: linkID) }
        return page(.ok, "Linked", "hmon now reads this Withings account's weigh-ins. You can close this page.")
    }

    private func page(_ status: HTTPResponse.Status, _ title: String, _ message: String) -> Response {
        let text = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>hmon: \(SignInPage.escape(title))</title></head>
            <body><h1>\(SignInPage.escape(title))</h1><p>\(SignInPage.escape(message))</p></body></html>
            """
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// The answer of `POST /v1.1/hmon/withings/poll`: what each of the caller's links added.
struct WithingsPollAnswer: Encodable {
    struct Link: Encodable {
        var id: String
        var added: Int
        var alreadyThere: Int
        var skipped: [String]
        /// Measure groups refused for their date or a figure (each named in `skipped`).
        var refused: Int
        var problem: String?
    }

    var added: Int
    var links: [Link]

    init(_ fetches: [WithingsFetch]) {
        added = fetches.map(\.added).reduce(0, +)
        links = fetches.map { Link(id: $0.linkID, added: $0.added, alreadyThere: $0.alreadyThere, skipped: $0.skipped,
                              refused: $0.refused, problem: $0.problem) }
    }
}
