import Foundation
import HealthCore
import HealthModel

/// What `hmon link add oura` prints and how it reads what the person pastes back.
public enum OuraLinkText {
    /// The link's path on `hmon serve`, the secret as its last segment.
    public static func path(secret: String) -> String { "/oura/" + secret }

    /// The lines printed once the link is made: the redirect URI to register and the page to open.
    public static func made(user: String, id: String, redirectURI: String, authorizeURL: URL) -> [String] {
        [
            "Oura link \(id) for \(user).",
            "1. In your Oura application (cloud.ouraring.com → My Applications), the Redirect URI must be:",
            "     \(redirectURI)",
            "2. Open this address, sign in to Oura and allow hmon to read your daily data:",
            "     \(authorizeURL.absoluteString)",
            "3. Oura then sends your browser to the redirect URI. If hmon serve is running there, it finishes the link itself.",
            "   Otherwise paste the address your browser was sent to (or only its code=… value) here.",
            "Keep the redirect URI private: it stands for \(user). Revoke the link with `hmon link revoke \(id)`.",
        ]
    }

    /// The code in what the person pasted: an address with `code=` (its `state` must be this link's), or a
    /// bare code. Nil for an empty line; a `CommandError` for an address that is not this link's answer.
    public static func code(in pasted: String, state: String) throws -> String? {
        let text = pasted.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        guard text.contains("=") else {
            guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }), text.count <= 400 else {
                throw CommandError("that is not an Oura code: paste the address your browser was sent to, or its code=… value")
            }
            return text
        }
        let query = text.split(separator: "?", maxSplits: 1).last.map(String.init) ?? text
        let items = FormEncoding.decode(query)
        if let error = items["error"] {
            throw CommandError("Oura did not authorize hmon (\(TerminalText.escaped(String(error.prefix(80))))): "
                               + "run `hmon link add oura` again and choose Accept")
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
