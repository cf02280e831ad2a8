import Foundation
import HealthConnectors
import HealthCore
import HealthModel

/// What `hmon link add KIND`, `hmon link list` and `hmon serve` say of a pulled source, and how `hmon link add`
/// reads what the person pastes back: one text for every source, in the source's own words
/// (`PulledSource.linkWords`).
public struct PulledLinkText<Source: PulledSource>: Sendable {
    public init() {}

    private var words: PulledLinkWords { Source.linkWords }
    private var name: String { Source.Link.sourceName }
    private var kind: String { Source.Link.kindName }

    /// The link's path on `hmon serve`, the secret as its last segment.
    public func path(secret: String) -> String { "/\(kind)/" + secret }

    /// The lines printed once the link is made: the address to register and the page to open.
    public func made(user: String, id: String, redirectURI: String, authorizeURL: URL) -> [String] {
        [
            "\(name) link \(id) for \(user).",
            "1. In your \(words.app) (\(words.appPlace)), the \(words.callbackTitle) must be:",
            "     \(redirectURI)",
            "2. Open this address, sign in to \(name) and allow hmon to read your \(words.allowed):",
            "     \(authorizeURL.absoluteString)",
            "3. \(name) then sends your browser to the \(words.callback). If hmon serve is running there, it finishes the link itself.",
            "   Otherwise paste the address your browser was sent to (or only its code=… value) here.",
            "Keep the \(words.callback) private: it stands for \(user). Revoke the link with `hmon link revoke \(id)`.",
        ]
    }

    /// The code in what the person pasted: an address with `code=` (its `state` must be this link's), or a
    /// bare code. Nil for an empty line; a `CommandError` for an address that is not this link's answer.
    public func code(in pasted: String, state: String) throws -> String? {
        let text = pasted.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        guard text.contains("=") else {
            guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }), text.count <= words.maxCodeLength else {
                throw CommandError("that is not \(words.aName) code: paste the address your browser was sent to, or its code=… value")
            }
            return text
        }
        let query = text.split(separator: "?", maxSplits: 1).last.map(String.init) ?? text
        let items = FormEncoding.decode(query)
        if let error = items["error"] {
            throw CommandError("\(name) did not authorize hmon (\(TerminalText.escaped(String(error.prefix(80))))): "
                               + "run `hmon link add \(kind)` again and choose \(words.allowButton)")
        }
        guard let code = items["code"], !code.isEmpty else {
            throw CommandError("the address holds no code=…: paste the whole address your browser was sent to")
        }
        if let pastedState = items["state"], pastedState != state {
            throw CommandError("that address answers another authorization (its state differs): open the address printed above and paste its answer")
        }
        return code
    }

    // MARK: Options and their errors

    /// The environment variable that holds the client secret without `--client-secret-file`.
    public var secretVariable: String { "HMON_\(kind.uppercased().replacingOccurrences(of: "-", with: "_"))_CLIENT_SECRET" }

    public var missingClientID: String { "\(kind) needs --client-id: your \(words.app)'s client id (\(words.clientIDPlace))" }
    public var unlikelyClientID: String { "--client-id holds spaces or characters \(words.aName) client id cannot have: copy it again" }
    public var missingBaseURL: String {
        "\(kind) needs --base-url: hmon serve's address as your browser and \(name) reach it "
            + "(its --public-url, e.g. https://health.example); the \(words.callback) is made from it"
    }

    /// The hidden options that point `hmon link add` and `hmon serve` at a fixture server instead of the source.
    public var apiOption: String { "\(kind)-api-url" }
    public var pagesOption: String { "\(kind)-\(Source.Endpoints.pagesName)-url" }
    public var apiOptionHelp: String { "\(words.possessive) API address (for tests)." }
    public var pagesOptionHelp: String { "\(words.possessive) \(Source.Endpoints.pagesName) address (for tests)." }
    public var badEndpoints: String { "--\(apiOption) and --\(pagesOption) must be http(s) addresses" }

    // MARK: After the code

    public var receivedMeanwhile: String { "Linked: hmon serve received the authorization and reads the \(words.readings)." }
    public var waiting: String {
        "The link waits for \(words.possessive) \(words.returnName) on hmon serve (see `hmon link list`); it reads the \(words.readings) once it arrives."
    }

    /// A code the source would not trade for tokens (`reason`: its refusal, or why it could not be reached).
    public func refused(_ reason: String) -> String {
        "\(reason): a code works once and for \(words.codeLifetime); check the client id and secret and run `hmon link add \(kind)` again"
    }

    public func unreachable(_ error: any Error) -> String {
        "cannot reach \(name) (\(TextRules.replacingUnsafe(in: String(String(describing: error).prefix(200))).text))"
    }

    public func linked(account: String) -> String {
        "Linked to \(account): hmon serve reads the \(words.readings) (every --\(pollOption), or at once on a notification with --public-url)."
    }

    /// What `hmon link list` adds to a link's line.
    public func listStatus(authorized: Bool) -> String {
        authorized ? "  authorized" : "  waiting for \(words.possessive) authorization (finish `hmon link add \(kind)`)"
    }

    // MARK: hmon serve

    public var pollOption: String { "\(kind)-poll-minutes" }
    public var pollOptionHelp: String {
        "Minutes between two reads of each \(name) link (`hmon link add \(kind)`); with --public-url, "
            + "notifications bring new \(words.readings) at once and this is the safety net."
    }
    public var defaultPollMinutes: Int { Int(Source.defaultPollInterval.components.seconds / 60) }
    public func badPollMinutes(_ minutes: Int) -> String {
        "--\(pollOption) \(minutes) is not a number of minutes from 1 to 1440 (e.g. --\(pollOption) \(defaultPollMinutes))"
    }
    public func badAPIURL(_ url: String) -> String { "--\(apiOption) \(url) is not an http or https address" }
}
