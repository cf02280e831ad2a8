import ArgumentParser
import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import HMonCommandLine
import RemoteClient

/// `hmon link add withings`'s own options and its authorization-code flow (the client id and secret options
/// serve `hmon link add oura` too: one command cannot have two `--client-id`): makes the link, prints the
/// callback URL and the Withings page to open, then waits for the code (pasted here, or received by
/// `hmon serve` at the callback) and keeps the tokens in the link's 0600 file (`WithingsLinkFiles`).
struct WithingsLinkOptions: ParsableArguments {
    @Option(name: .customLong("client-id"),
            help: ArgumentHelp("withings, oura: your own developer app's client id.", valueName: "id"))
    var clientID: String?

    @Option(name: .customLong("client-secret-file"),
            help: ArgumentHelp("withings, oura: a file whose first line is the app's client secret (else HMON_WITHINGS_CLIENT_SECRET "
                               + "or HMON_OURA_CLIENT_SECRET).",
                               valueName: "path"))
    var clientSecretFile: String?

    /// Withings' API and account pages: the real service unless a test points them at its fixture server.
    @Option(name: .customLong("withings-api-url"), help: ArgumentHelp("Withings' API address (for tests).", visibility: .hidden))
    var apiURL = WithingsEndpoints.real.api.absoluteString

    @Option(name: .customLong("withings-account-url"), help: ArgumentHelp("Withings' account address (for tests).", visibility: .hidden))
    var accountURL = WithingsEndpoints.real.account.absoluteString

    var endpoints: WithingsEndpoints? {
        guard let api = URL(string: apiURL), api.host != nil, let account = URL(string: accountURL), account.host != nil else { return nil }
        return WithingsEndpoints(api: api, account: account)
    }

    func validate(baseURL: String?) throws {
        guard let clientID, !clientID.isEmpty else {
            throw ValidationError("withings needs --client-id: your Withings developer app's client id (developer.withings.com)")
        }
        guard clientID.allSatisfy({ $0.isASCII && !$0.isWhitespace }), clientID.count <= 200 else {
            throw ValidationError("--client-id holds spaces or characters a Withings client id cannot have: copy it again")
        }
        guard baseURL != nil else {
            throw ValidationError("withings needs --base-url: hmon serve's address as your browser and Withings reach it "
                                  + "(its --public-url, e.g. https://health.example); the callback URL is made from it")
        }
        guard endpoints != nil else { throw ValidationError("--withings-api-url and --withings-account-url must be http(s) addresses") }
    }

    /// The client secret, trimmed: from the file, else the environment; never from an argument (a process list shows those).
    func clientSecret(environment: [String: String], variable: String = "HMON_WITHINGS_CLIENT_SECRET", app: String = "Withings") throws -> String {
        let text: String
        if let clientSecretFile {
            do {
                text = try String(contentsOfFile: clientSecretFile, encoding: .utf8)
            } catch {
                throw CommandError("cannot read the client secret file \(clientSecretFile): check the path and that it is readable")
            }
            if let mode = (try? FileManager.default.attributesOfItem(atPath: clientSecretFile))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
                FileHandle.standardError.write(Data("hmon: warning: \(TerminalText.escaped(clientSecretFile)) can be read by others: chmod 600 it\n".utf8))
            }
        } else if let value = environment[variable], !value.isEmpty {
            text = value
        } else {
            throw CommandError("no client secret: pass --client-secret-file PATH or set \(variable) "
                               + "(your \(app) developer app's secret)")
        }
        let secret = String(text.split(whereSeparator: \.isNewline).first ?? "").trimmingCharacters(in: .whitespaces)
        guard !secret.isEmpty, !secret.contains(where: { $0.isWhitespace || !$0.isASCII }) else {
            throw CommandError("the client secret is empty or holds spaces: put the app's secret alone on the first line")
        }
        return secret
    }

    func link(links: any PushLinkStore, user: User, baseURL: String, environment: [String: String]) async throws {
        let secret = try clientSecret(environment: environment)
        guard let endpoints, let clientID else { return }
        let files = WithingsLinkFiles(paths: HMonPaths(environment: environment))
        let (id, linkSecret) = try await links.createPushLink(kind: .withings, userID: user.id, now: Date())
        let path = WithingsLinkText.path(secret: linkSecret)
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let state = Secrets.newToken()
        var link = WithingsLink(linkID: id, userID: user.id, clientID: clientID, clientSecret: secret, callbackPath: path,
                                redirectURI: base + path, pendingState: state)
        do {
            try files.save(link)
        } catch {
            _ = try? await links.revokePushLink(id: id)
            throw error
        }
        let authorize = endpoints.authorizeURL(clientID: clientID, redirectURI: link.redirectURI, state: state)
        for line in WithingsLinkText.made(user: user.name, id: id, redirectURI: link.redirectURI, authorizeURL: authorize) {
            printEscaped(line)
        }
        print("Address or code (Enter once hmon serve has it): ", terminator: "")
        // Everything above must be on the screen (or in the pipe) before the command waits for the answer.
        fflush(nil)  // every stream: naming `stdout` is shared mutable state to Swift 6
        let pasted = readLine(strippingNewline: true) ?? ""
        guard let code = try WithingsLinkText.code(in: pasted, state: state) else {
            // The callback may have reached hmon serve meanwhile, or will: the link waits for it.
            if (try? files.load(linkID: id))?.tokens != nil {
                printEscaped("Linked: hmon serve received the authorization and reads the weigh-ins.")
            } else {
                printEscaped("The link waits for Withings' callback on hmon serve (see `hmon link list`); it reads the weigh-ins once it arrives.")
            }
            return
        }
        let api = WithingsAPI(endpoints: endpoints, transport: WithingsHTTPTransport())
        do {
            link.tokens = try await api.requestToken(code: code, clientID: clientID, clientSecret: secret, redirectURI: link.redirectURI, now: Date())
        } catch let error as WithingsError {
            _ = try? await links.revokePushLink(id: id)
            files.delete(linkID: id)
            throw CommandError("\(error): a code works once and for 30 seconds; check the client id and secret "
                               + "and run `hmon link add withings` again")
        }
        link.pendingState = nil
        try files.save(link)
        printEscaped("Linked to Withings user \(link.tokens?.userid ?? "?"): hmon serve reads the weigh-ins "
                     + "(every --withings-poll-minutes, or at once on a notification with --public-url).")
    }
}
