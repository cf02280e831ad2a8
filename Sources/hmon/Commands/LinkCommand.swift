import ArgumentParser
import Foundation
import HealthCore
import HealthConnectors
import HealthModel
import HealthServer
import HMonCommandLine

/// `hmon link add KIND | list | revoke ID|KIND`: the secret URLs apps push readings to, and the links of the
/// sources `hmon serve` reads (`PushSources`, `PulledSources`).
struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Manage the secret links apps push readings to through `hmon serve` "
            + "(\((PushSources.appNames + PulledSources.all.map { $0.sourceName }).joined(separator: ", "))).",
        subcommands: [LinkAddCommand.self, LinkListCommand.self, LinkRevokeCommand.self])
}

/// A kind on the command line is one `hmon link add` names: an app that pushes, or a source `hmon serve` reads.
extension PushLinkKind: ExpressibleByArgument {
    public init?(argument: String) {
        guard LinkAddCommand.kinds.contains(argument) else { return nil }
        self.init(argument)
    }

    public static var allValueStrings: [String] { LinkAddCommand.kinds }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// Prints the link once: only its secret's hash is kept.
struct LinkAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Make a link for an app to post to; prints the URL and headers to enter in the app (shown only this once).",
        discussion: """
            health-auto-export: the Health Auto Export iPhone app's REST API automation. In the app: Automation \
            Type REST API, the URL printed here, Export Format JSON, Period "Since Last Sync", aggregation ("Summarize Data") off \
            (see docs/health-auto-export.md). The app cannot sign its posts: the URL's secret is the link's only key.

            health-connect: an Android app posting Health Connect's records, Life Dashboard Companion or HC Webhook. \
            With --signing-secret-file, every post must carry X-Signature: sha256=HMAC-SHA256 of its body with that \
            secret, as Life Dashboard Companion sends it (see docs/health-connect.md).

            openscale: openScale-sync's webhook: the weigh-ins of the open-source scale app, each insert, update, \
            delete and clear mirrored (see docs/openscale.md). A link follows one openScale user: --openscale-user N, \
            or the first it hears from. openScale-sync cannot sign its posts.
            """ + PulledSources.all.map { "\n\n" + $0.linkWords.help }.joined())

    @OptionGroup var database: DatabaseOption

    @Argument(help: ArgumentHelp("The app that posts: \(Wording.list(Self.kinds, and: "or")).", valueName: "kind"))
    var kind: PushLinkKind

    @Option(help: ArgumentHelp("The account the readings go to (default: the signed-in user, or the only account).", valueName: "name"))
    var user: String?

    @Option(name: .customLong("base-url"),
            help: ArgumentHelp("hmon serve's address as the phone reaches it (its --public-url, or the machine's address on "
                               + "your network, e.g. http://192.168.1.20:8080); without it only the path is printed.", valueName: "url"))
    var baseURL: String?

    @Flag(help: "Accept a --base-url on this machine itself (127.0.0.1, localhost): to try the link from this machine.")
    var allowLoopback = false

    @Option(name: .customLong("signing-secret-file"),
            help: ArgumentHelp("A kind whose app signs its posts (health-connect): a file whose first line is the secret the app "
                               + "signs each post with (X-Signature); posts without a right signature are refused.", valueName: "path"))
    var signingSecretFile: String?

    @Option(name: .customLong("openscale-user"),
            help: ArgumentHelp("openscale: the openScale user whose weigh-ins the link keeps (openScale's userId, 1 for its first "
                               + "person); without it, the first one the link hears from. Another user's are answered and kept "
                               + "nowhere.", valueName: "n"))
    var openScaleUser: Int?

    @OptionGroup var pulled: PulledLinkOptions

    @OptionGroup var pulledFlags: PulledLinkFlags

    /// Every kind of link, as the help lists them: the apps that push, then the sources `hmon serve` reads.
    static var kinds: [String] { PushSources.kinds.map(\.rawValue) + PulledSources.all.map { $0.kindName } }

    func validate() throws {
        if let openScaleUser {
            guard kind == .openScale else { throw ValidationError("--openscale-user is for `hmon link add openscale`") }
            guard openScaleUser >= 0 else { throw ValidationError("--openscale-user must be openScale's userId, a whole number from 0") }
        }
        if signingSecretFile != nil {
            let signed = PushSources.signedKinds.map { "`hmon link add \($0.rawValue)`" }.joined(separator: ", ")
            switch PushSources.signing(of: kind) {
            case .byTheApp:
                break
            case .notByTheApp(let why):
                // A link whose app cannot sign would refuse every post: its URL's secret is its only key.
                throw ValidationError("--signing-secret-file: \(why), so a signed \(kind.rawValue) link would refuse every post. "
                                      + "Keep the link's URL private instead (only \(signed) takes a signing secret)")
            case nil:
                throw ValidationError("--signing-secret-file is for the links an app signs its posts to: \(signed)")
            }
        }
        if let source = PulledSources.source(of: kind) {
            try validate(source)
        } else if pulled.clientID != nil || pulled.clientSecretFile != nil {
            let kinds = PulledSources.all.map { "`hmon link add \($0.kindName)`" }
            throw ValidationError("--client-id and --client-secret-file are for \(Wording.list(kinds))")
        }
        guard let baseURL else { return }
        guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme ?? ""), let host = url.host, !host.isEmpty else {
            throw ValidationError("--base-url must be an http or https address, such as http://192.168.1.20:8080")
        }
        if !allowLoopback, HRVLinkCommand.isThisMachineOnly(host) {
            throw ValidationError("--base-url \(baseURL) names this machine to itself: the phone posting to it reaches the phone, "
                                  + "not hmon serve. Pass the address the phone reaches the server at, or --allow-loopback to try it here")
        }
    }

    func run() async throws {
        let opener = StoreOpener(db: database.db, user: user)
        let service = LocalHealthService(store: try await opener.openStore(.readWrite))
        let account = try await opener.actingUser(on: service)
        if let source = PulledSources.source(of: kind) {
            return try await link(source, store: service.store, user: account, environment: opener.environment)
        }
        let base = baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let (id, secret, signed) = try await pushLink(store: service.store, user: account, paths: opener.paths)
        let lines = switch kind {
        case .healthConnect:
            HealthConnectLinkText.made(user: account.name, id: id, url: (base ?? "") + HealthConnectLinkText.path(secret: secret),
                                       hasBase: base != nil, signed: signed)
        case .openScale:
            OpenScaleLinkText.made(user: account.name, id: id, url: (base ?? "") + OpenScaleLinkText.path(secret: secret), hasBase: base != nil)
        default:
            HealthAutoExportLinkText.made(user: account.name, id: id, url: (base ?? "") + HealthAutoExportLinkText.path(secret: secret),
                                          hasBase: base != nil)
        }
        for line in lines { printEscaped(line) }
    }
}

extension LinkAddCommand {
    private func validate<Source: PulledSource>(_ source: Source.Type) throws {
        try pulled.validate(source, endpoints: pulledFlags.endpoints(of: source), baseURL: baseURL)
    }

    /// A link to a source `hmon serve` reads, authorized by the person in their browser.
    private func link<Source: PulledSource>(_ source: Source.Type, store: any PushLinkStore, user: User, environment: [String: String]) async throws {
        try await pulled.link(source, endpoints: pulledFlags.endpoints(of: source), links: store, user: user, baseURL: baseURL ?? "",
                              environment: environment)
    }

    /// A link an app pushes to; with a signing secret (only for a kind whose app signs, see `validate`), kept
    /// with the link in the store, where every server of it finds it.
    private func pushLink(store: any PushLinkStore, user: User, paths: HMonPaths) async throws -> (id: String, secret: String, signed: Bool) {
        let signing = try signingSecretFile.map(SecretFile.firstLine)
        let (id, secret) = try await store.createPushLink(kind: kind, userID: user.id, signingSecret: signing, now: Date())
        if let openScaleUser {
            do {
                _ = try await store.followSourceUser(openScaleUser, linkID: id)
            } catch {
                // A link meant for one person is not left taking anyone's weigh-ins.
                _ = try? await store.revokePushLink(id: id)
                throw error
            }
        }
        return (id, secret, signing != nil)
    }
}

struct LinkListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the links: id, kind, user, made, last used (never the secrets).")

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Print [{\"id\", \"kind\", \"user\", \"made\", \"last_used\", \"authorized\"}…] (never the secrets).")
    var json = false

    func run() async throws {
        let store = try await StoreOpener(database).openStore(.readOnly)
        let links = try await store.pushLinks()
        // A pulled source's link says whether it has been authorized yet (its file holds tokens then).
        let paths = StoreOpener(database).paths
        func authorized(_ link: PushLink) -> Bool {
            PulledSources.source(of: link.kind)?.isAuthorized(linkID: link.id, paths: paths) ?? true
        }
        if json {
            print(try ListingJSON.text(links.map { link in
                let times = ISO8601DateFormatter()
                return ["id": link.id, "kind": link.kind.rawValue, "user": link.userName, "made": times.string(from: link.createdAt),
                        "last_used": link.lastUsedAt.map { times.string(from: $0) } ?? NSNull(),
                        // Only a pulled source's link waits for an authorization; the others work once made.
                        "authorized": authorized(link)] as [String: Any]
            }))
            return
        }
        if links.isEmpty {
            printEscaped("No links: make one with `hmon link add health-auto-export`.")
            return
        }
        for (line, link) in zip(HealthAutoExportLinkText.list(links), links) {
            printEscaped(line + (PulledSources.source(of: link.kind)?.listStatus(linkID: link.id, paths: paths) ?? ""))
        }
    }
}

struct LinkRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a link by its id, or every link of a kind (of --user, or of everyone).")

    @OptionGroup var database: DatabaseOption

    @Argument(help: ArgumentHelp("A link's id, as `hmon link list` shows it, or a kind: \(LinkAddCommand.kinds.joined(separator: ", ")).",
                                 valueName: "id|kind"))
    var target: String

    @Option(help: ArgumentHelp("With a kind: only this account's links.", valueName: "name"))
    var user: String?

    func run() async throws {
        let opener = StoreOpener(db: database.db, user: user)
        let store = try await opener.openStore(.readWrite)
        // A pulled source's link's client secret and tokens go with it.
        func deleteFiles(linkID: String) {
            for source in PulledSources.all { source.deleteLinkFile(linkID: linkID, paths: opener.paths) }
        }
        if let kind = PushLinkKind(argument: target) {
            var account: User?
            if user != nil { account = try await opener.actingUser(on: LocalHealthService(store: store)) }
            let revoked = try await store.pushLinks().filter { $0.kind == kind && (account == nil || $0.userName == account?.name) }
            let count = try await store.revokePushLinks(kind: kind, userID: account?.id)
            for link in revoked { deleteFiles(linkID: link.id) }
            PushLinkSigningSecrets(paths: opener.paths).delete(linkIDs: Set(revoked.map(\.id)))
            printEscaped(count == 0 ? "No \(kind.rawValue) links to revoke." : "Revoked \(count) \(kind.rawValue) link\(count == 1 ? "" : "s").")
            return
        }
        guard try await store.revokePushLink(id: target) else {
            throw CommandError("no link has the id \(target): see `hmon link list`")
        }
        if !target.contains("/") { deleteFiles(linkID: target) }
        PushLinkSigningSecrets(paths: opener.paths).delete(linkIDs: [target])
        printEscaped("Revoked \(target): the app's posts to it are refused (404) from now on.")
    }
}
