import ArgumentParser
import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import HMonCommandLine
import RemoteClient

/// `hmon link add oura`'s authorization-code flow: makes the link, prints the redirect URI and the Oura
/// page to open, then waits for the code (pasted here, or received by `hmon serve` at the redirect URI) and
/// keeps the tokens in the link's 0600 file (`OuraLinkFiles`). The client id and secret are the options
/// `hmon link add withings` has (`WithingsLinkOptions`), the secret from a file or HMON_OURA_CLIENT_SECRET.
struct OuraLinkOptions: ParsableArguments {
    /// Oura's API and cloud pages: the real service unless a test points them at its fixture server.
    @Option(name: .customLong("oura-api-url"), help: ArgumentHelp("Oura's API address (for tests).", visibility: .hidden))
    var apiURL = OuraEndpoints.real.api.absoluteString

    @Option(name: .customLong("oura-cloud-url"), help: ArgumentHelp("Oura's cloud address (for tests).", visibility: .hidden))
    var cloudURL = OuraEndpoints.real.cloud.absoluteString

    var endpoints: OuraEndpoints? {
        guard let api = URL(string: apiURL), api.host != nil, let cloud = URL(string: cloudURL), cloud.host != nil else { return nil }
        return OuraEndpoints(api: api, cloud: cloud)
    }

    func validate(clientID: String?, baseURL: String?) throws {
        guard let clientID, !clientID.isEmpty else {
            throw ValidationError("oura needs --client-id: your Oura application's client id (cloud.ouraring.com → My Applications)")
        }
        guard clientID.allSatisfy({ $0.isASCII && !$0.isWhitespace }), clientID.count <= 200 else {
            throw ValidationError("--client-id holds spaces or characters an Oura client id cannot have: copy it again")
        }
        guard baseURL != nil else {
            throw ValidationError("oura needs --base-url: hmon serve's address as your browser and Oura reach it "
                                  + "(its --public-url, e.g. https://health.example); the redirect URI is made from it")
        }
        guard endpoints != nil else { throw ValidationError("--oura-api-url and --oura-cloud-url must be http(s) addresses") }
    }

    func link(app: WithingsLinkOptions, links: any PushLinkStore, user: User, baseURL: String, environment: [String: String]) async throws {
        let secret = try app.clientSecret(environment: environment, variable: "HMON_OURA_CLIENT_SECRET", app: "Oura")
        guard let endpoints, let clientID = app.clientID else { return }
        let files = OuraLinkFiles(paths: HMonPaths(environment: environment))
        let (id, linkSecret) = try await links.createPushLink(kind: .oura, userID: user.id, now: Date())
        let path = OuraLinkText.path(secret: linkSecret)
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let state = Secrets.newToken()
        var link = OuraLink(linkID: id, userID: user.id, clientID: clientID, clientSecret: secret, callbackPath: path,
                            redirectURI: base + path, pendingState: state, verificationToken: Secrets.newToken())
        do {
            try files.save(link)
        } catch {
            _ = try? await links.revokePushLink(id: id)
            throw error
        }
        let authorize = endpoints.authorizeURL(clientID: clientID, redirectURI: link.redirectURI, state: state)
        for line in OuraLinkText.made(user: user.name, id: id, redirectURI: link.redirectURI, authorizeURL: authorize) {
            printEscaped(line)
        }
        print("Address or code (Enter once hmon serve has it): ", terminator: "")
        // Everything above must be on the screen (or in the pipe) before the command waits for the answer.
        fflush(nil)  // every stream: naming `stdout` is shared mutable state to Swift 6
        let pasted = readLine(strippingNewline: true) ?? ""
        let code: String?
        do {
            code = try OuraLinkText.code(in: pasted, state: state)
        } catch {
            // A link whose authorization failed is not left waiting with the client secret in its file.
            _ = try? await links.revokePushLink(id: id)
            files.delete(linkID: id)
            throw error
        }
        guard let code else {
            // The redirect may have reached hmon serve meanwhile, or will: the link waits for it.
            if (try? files.load(linkID: id))?.tokens != nil {
                printEscaped("Linked: hmon serve received the authorization and reads the nights.")
            } else {
                printEscaped("The link waits for Oura's redirect on hmon serve (see `hmon link list`); it reads the nights once it arrives.")
            }
            return
        }
        let api = OuraAPI(endpoints: endpoints, transport: OuraHTTPTransport())
        do {
            link.tokens = try await api.requestToken(code: code, clientID: clientID, clientSecret: secret, redirectURI: link.redirectURI, now: Date())
        } catch {
            _ = try? await links.revokePushLink(id: id)
            files.delete(linkID: id)
            let reason = (error as? OuraError)?.description
                ?? "cannot reach Oura (\(TextRules.replacingUnsafe(in: String(String(describing: error).prefix(200))).text))"
            throw CommandError("\(reason): a code works once and for a few minutes; check the client id and secret "
                               + "and run `hmon link add oura` again")
        }
        link.pendingState = nil
        try files.save(link)
        printEscaped("Linked to Oura: hmon serve reads the nights (every --oura-poll-minutes, or at once on a notification with --public-url).")
    }
}
