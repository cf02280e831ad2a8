import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import Hummingbird
import NIOCore

/// The Oura link's routes (`hmon link add oura`):
/// - `GET /oura/{secret}?code=…&state=…`: where Oura sends the person back after they allowed hmon to read
///   their ring's data; the server trades the code for tokens and keeps them in the link's file.
/// - `GET /oura/{secret}?verification_token=…&challenge=…`: Oura's check of the callback before it makes a
///   webhook subscription, answered `{"challenge": …}` when the token is this link's.
/// - `POST /oura/{secret}`: a notification (`{"event_type", "data_type", "object_id", "event_time", "user_id"}`),
///   answered 200 at once; a sleep notification has the link's nights read right after.
/// - `POST /v1.1/hmon/oura/poll`: reads the caller's links now, answering what was added.
///
/// A wrong or revoked secret is a 404 that does nothing.
struct OuraRoutes {
    /// The path prefix, also what the request log shows in place of the secret.
    static let prefix = "/oura/"

    let store: any PushLinkStore
    let polling: OuraPolling
    let configuration: ServerConfiguration
    var sync: OuraSync { polling.sync }

    func add(to router: Router<ServerContext>) {
        router.get("/oura/:secret") { request, context -> Response in
            let secret = context.parameters.get("secret") ?? ""
            if let query = try? RequestInput.query(request), let token = query["verification_token"], let challenge = query["challenge"] {
                guard let link = try await link(secret: secret) else { throw notALink }
                // Compared as hashes: the time it takes says nothing of how much of the token was right.
                guard Secrets.sha256Hex(token) == Secrets.sha256Hex(link.verificationToken) else {
                    throw APIError(.unauthorized, code: 401, message: "The verification token is not this link's.")
                }
                return JSONBody.response(["challenge": challenge])
            }
            return try await authorized(request, secret: secret)
        }
        router.post("/oura/:secret") { request, context -> Response in
            guard let link = try await link(secret: context.parameters.get("secret") ?? "") else { throw notALink }
            // Any notification is acknowledged, or Oura would send it again; a sleep one has the nights read.
            let body = try await RequestInput.bytes(request)
            let notification = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            if notification?["data_type"] as? String == "sleep", link.tokens != nil {
                let polling = self.polling
                _ = await sync.schedule(linkID: link.linkID) { polling.report([$0], asked: true) }
            }
            return Response(status: .ok)
        }
        router.post("/v1.1/hmon/oura/poll") { _, context -> Response in
            guard let principal = context.principal else { throw APIError.unauthorized }
            guard let userID = principal.userID, principal.scopes.contains(Scope.read) else { throw APIError.forbidden }
            return JSONBody.response(try await Self.poll(polling, userID: userID))
        }
    }

    /// Reads the user's links now. Subscriptions missing or about to expire are seen to first.
    static func poll(_ polling: OuraPolling, userID: String) async throws -> OuraPollAnswer {
        await polling.subscribe()
        let fetches = try await polling.sync.fetch(userID: userID)
        polling.report(fetches, asked: true)
        return OuraPollAnswer(fetches)
    }

    private var notALink: APIError {
        APIError(.notFound, code: 404, message: "This is not an hmon Oura link (or it was revoked): run `hmon link add oura` for a new one.")
    }

    /// The link whose secret is in the path, noting its use; nil for an unknown or revoked one.
    private func link(secret: String) async throws -> OuraLink? {
        guard try await store.pushLinkUser(secret: secret, kind: .oura, now: configuration.clock()) != nil else { return nil }
        let path = Self.prefix + secret
        for id in try await sync.linkIDs() {
            if let link = try sync.files.load(linkID: id), link.callbackPath == path { return link }
        }
        return nil
    }

    /// The end of the authorization: the code is traded for tokens, which only the link's file keeps.
    private func authorized(_ request: Request, secret: String) async throws -> Response {
        guard var link = try await link(secret: secret) else {
            return page(.notFound, "Not found", "This is not an hmon Oura link (or it was revoked): run `hmon link add oura` for a new one.")
        }
        guard let query = try? RequestInput.query(request) else {
            return page(.badRequest, "Not linked", "This address holds a control character (such as %00) in its query: open the link Oura gave again.")
        }
        guard let code = query["code"], !code.isEmpty else {
            if query["error"] != nil {
                return page(.ok, "Not linked", "Oura did not authorize hmon. Run `hmon link add oura` again to retry.")
            }
            return page(.ok, "hmon", "This is the address of an hmon Oura link.")
        }
        guard let expected = link.pendingState, query["state"] == expected else {
            return page(.badRequest, "Not linked",
                        "This authorization is not the one `hmon link add oura` started (or it was used already): run it again.")
        }
        // A person reads this in their browser: every failure is this route's page, never the API's JSON.
        do {
            link.tokens = try await sync.api.requestToken(code: code, clientID: link.clientID, clientSecret: link.clientSecret,
                                                          redirectURI: link.redirectURI, now: configuration.clock())
        } catch let error as OuraError {
            return page(.badGateway, "Not linked", "\(error). Run `hmon link add oura` again.")
        } catch {
            let reason = TextRules.replacingUnsafe(in: String(String(describing: error).prefix(200))).text
            return page(.badGateway, "Not linked",
                        "hmon serve cannot reach Oura (\(reason)). Check that the server can reach the internet, then run `hmon link add oura` again.")
        }
        link.pendingState = nil
        do {
            try sync.files.save(link)
        } catch {
            return page(.internalServerError, "Not linked",
                        "hmon serve cannot save the link's file (\(error)). Check the data folder's space and permissions, then run `hmon link add oura` again.")
        }
        let (polling, linkID) = (self.polling, link.linkID)
        Task {
            await polling.subscribe()
            await polling.fetch(linkID: linkID)
        }
        return page(.ok, "Linked", "hmon now reads this Oura ring's nights. You can close this page.")
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

/// The answer of `POST /v1.1/hmon/oura/poll`: what each of the caller's links added.
struct OuraPollAnswer: Encodable {
    struct Link: Encodable {
        var id: String
        var added: Int
        var alreadyThere: Int
        var changed: Int
        var skipped: [String]
        var problem: String?
    }

    var added: Int
    var links: [Link]

    init(_ fetches: [OuraFetch]) {
        added = fetches.map(\.added).reduce(0, +)
        links = fetches.map { Link(id: $0.linkID, added: $0.added, alreadyThere: $0.alreadyThere, changed: $0.changed,
                                   skipped: $0.skipped, problem: $0.problem) }
    }
}
