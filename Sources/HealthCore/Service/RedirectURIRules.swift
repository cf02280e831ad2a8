import Foundation
import HealthModel

/// Which addresses an OAuth client may register as its redirect URI (RFC 6749 §3.1.2; RFC 8252 §7.1 for
/// apps' own schemes). A redirect carries tokens and codes, and the sign-in answers with a `Location` to
/// it, so an address a browser would run as script (`javascript:alert(1)`) must never be registered.
public enum RedirectURIRules {
    /// Schemes whose "address" is content or script a browser runs or shows, never a place to go to.
    static let refusedSchemes: Set<String> = ["javascript", "vbscript", "data", "file", "blob", "about", "filesystem",
                                               "view-source", "jar", "mhtml"]

    /// Throws `.invalidValue` saying what is wrong and what is accepted. Accepted: `http://` and `https://`
    /// with a host, and an app's own scheme (`hmon://signed-in`, `com.example.app:/callback`); always
    /// absolute, without a fragment, spaces or control characters.
    public static func check(_ uri: String) throws {
        let shown = Self.shown(uri)
        let accepted = "use https://host/path, http://host/path or an app's own scheme such as com.example.app:/callback"
        if uri.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw HealthError.invalidValue("the redirect URI \(shown) contains spaces or control characters: \(accepted)")
        }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(), !scheme.isEmpty else {
            throw HealthError.invalidValue("the redirect URI \(shown) is not an absolute URI: \(accepted)")
        }
        if refusedSchemes.contains(scheme) {
            throw HealthError.invalidValue("the redirect URI \(shown) uses the \(scheme): scheme, which a browser runs or shows instead of going to it: \(accepted)")
        }
        if uri.contains("#") {
            throw HealthError.invalidValue("the redirect URI \(shown) has a fragment (#…), which OAuth forbids: remove it")
        }
        if scheme == "http" || scheme == "https" {
            guard let host = components.host, !host.isEmpty else {
                throw HealthError.invalidValue("the redirect URI \(shown) has no host: \(accepted)")
            }
        }
    }

    /// Whether `uri` may be used: for addresses registered before the rule existed.
    public static func accepts(_ uri: String) -> Bool { (try? check(uri)) != nil }

    /// The URI quoted for a message, with anything unprintable escaped so it cannot drive a terminal.
    static func shown(_ uri: String) -> String {
        var text = "\""
        for scalar in uri.unicodeScalars.prefix(200) {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.generalCategory == .format {
                text += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text + (uri.unicodeScalars.count > 200 ? "…\"" : "\"")
    }
}
