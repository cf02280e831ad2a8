import Foundation
import HealthCore
import HealthModel

/// What `hmon link add withings` prints and how it reads what the person pastes back.
public enum WithingsLinkText {
    /// The link's path on `hmon serve`, the secret as its last segment.
    public static func path(secret: String) -> String { "/withings/" + secret }

    /// The lines printed once the link is made: the callback to register and the page to open.
    public static func made(user: String, id: String, redirectURI: String, authorizeURL: URL) -> [String] {
        [
            "Withings link \(id) for \(user).",
            "1. In your Withings developer app (developer.withings.com → your app), the callback URL must be:",
            "     \(redirectURI)",
            "2. Open this address, sign in to Withings and allow hmon to read your measures:",
            "     \(authorizeURL.absoluteString)",
            "3. Withings then sends your browser to the callback URL. If hmon serve is running there, it finishes the link itself.",
            "   Otherwise paste the address your browser was sent to (or only its code=… value) here.",
            "Keep the callback URL private: it stands for \(user). Revoke the link with `hmon link revoke \(id)`.",
        ]
    }

    /// The code in what the person pasted: an address with `code=` (its `state` must be this link's), or a
    /// bare code. Nil for an empty line; a `CommandError` for an address that is not this link's answer.
    public static func code(in pasted: String, state: String) throws -> String? {
        let text = pasted.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        guard text.contains("=") else {
            guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }), text.count <= 200 else {
                throw CommandError("that is not a Withings code: paste the address your browser was sent to, or its code=… value")
            }
            return text
        }
        let query = text.split(separator: "?", maxSplits: 1).last.map(String.init) ?? text
        let items = FormEncoding.decode(query)
        if let error = items["error"] {
            throw CommandError("Withings did not authorize hmon (\(TerminalText.escaped(String(error.prefix(80))))): "
                               + "run `hmon link add withings` again and choose Allow")
        }
        guard let code = items["code"], !code.isEmpty else {
            throw CommandError("the address holds no code=…: paste the whole address your browser was sent to")
        }
        if let pastedState = items["state"], pastedState != state {
            throw CommandError("that address answers another authorization (its state differs): open the address printed above and paste its answer")
        }
        return code
    }
}
