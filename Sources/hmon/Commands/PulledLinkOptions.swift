import ArgumentParser
import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import HealthServer
import HMonCommandLine
import RemoteClient

/// `hmon link add KIND`'s options for a pulled source (one command cannot have two `--client-id`, so every
/// source shares them) and its authorization-code flow: makes the link, prints the address to register and
/// the source's page to open, then waits for the code (pasted here, or received by `hmon serve` at the
/// address) and keeps the tokens in the link's 0600 file (`PulledLinkFiles`).
struct PulledLinkOptions: ParsableArguments {
    @Option(name: .customLong("client-id"),
            help: ArgumentHelp("\(Self.kinds.joined(separator: ", ")): your own developer app's client id.", valueName: "id"))
    var clientID: String?

    @Option(name: .customLong("client-secret-file"),
            help: ArgumentHelp("\(Self.kinds.joined(separator: ", ")): a file whose first line is the app's client secret (else "
                               + "\(Wording.list(PulledSources.all.map { $0.secretVariable }, and: "or"))).",
                               valueName: "path"))
    var clientSecretFile: String?

    /// The kinds these options are for, as the help names them.
    static var kinds: [String] { PulledSources.all.map { $0.kindName } }

    func validate<Source: PulledSource>(_: Source.Type, endpoints: Source.Endpoints?, baseURL: String?) throws {
        let text = PulledLinkText<Source>()
        guard let clientID, !clientID.isEmpty else { throw ValidationError(text.missingClientID) }
        guard clientID.allSatisfy({ $0.isASCII && !$0.isWhitespace }), clientID.count <= 200 else { throw ValidationError(text.unlikelyClientID) }
        guard baseURL != nil else { throw ValidationError(text.missingBaseURL) }
        guard endpoints != nil else { throw ValidationError(text.badEndpoints) }
    }

    /// The client secret, trimmed: from the file, else the environment; never from an argument (a process list shows those).
    func clientSecret(environment: [String: String], variable: String, app: String) throws -> String {
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

    func link<Source: PulledSource>(_: Source.Type, endpoints: Source.Endpoints?, links: any PushLinkStore, user: User, baseURL: String,
                                    environment: [String: String]) async throws {
        let text = PulledLinkText<Source>()
        let secret = try clientSecret(environment: environment, variable: text.secretVariable, app: Source.Link.sourceName)
        guard let endpoints, let clientID else { return }
        let files = PulledLinkFiles<Source.Link>(paths: HMonPaths(environment: environment))
        let (id, linkSecret) = try await links.createPushLink(kind: Source.linkKind, userID: user.id, now: Date())
        let path = text.path(secret: linkSecret)
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let state = Secrets.newToken()
        var link = Source.Link(linkID: id, userID: user.id, clientID: clientID, clientSecret: secret, callbackPath: path,
                               redirectURI: base + path, pendingState: state)
        do {
            try files.save(link)
        } catch {
            _ = try? await links.revokePushLink(id: id)
            throw error
        }
        let authorize = endpoints.authorizeURL(clientID: clientID, redirectURI: link.redirectURI, state: state)
        for line in text.made(user: user.name, id: id, redirectURI: link.redirectURI, authorizeURL: authorize) {
            printEscaped(line)
        }
        print("Address or code (Enter once hmon serve has it): ", terminator: "")
        // Everything above must be on the screen (or in the pipe) before the command waits for the answer.
        fflush(nil)  // every stream: naming `stdout` is shared mutable state to Swift 6
        let pasted = readLine(strippingNewline: true) ?? ""
        let code: String?
        do {
            code = try text.code(in: pasted, state: state)
        } catch {
            // A link whose authorization failed is not left waiting with the client secret in its file.
            _ = try? await links.revokePushLink(id: id)
            files.delete(linkID: id)
            throw error
        }
        guard let code else {
            // The source's answer may have reached hmon serve meanwhile, or will: the link waits for it.
            printEscaped((try? files.load(linkID: id))?.tokens != nil ? text.receivedMeanwhile : text.waiting)
            return
        }
        let api = Source(endpoints: endpoints, transport: PulledHTTPTransport())
        let tokens: Source.Link.Tokens
        do {
            tokens = try await api.requestToken(code: code, clientID: clientID, clientSecret: secret, redirectURI: link.redirectURI, now: Date())
        } catch {
            _ = try? await links.revokePushLink(id: id)
            files.delete(linkID: id)
            throw CommandError(text.refused((error as? Source.Refusal)?.description ?? text.unreachable(error)))
        }
        link.tokens = tokens
        link.pendingState = nil
        try files.save(link)
        printEscaped(text.linked(account: Source.account(of: tokens)))
    }
}
