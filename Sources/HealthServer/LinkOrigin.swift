import Foundation
import HTTPTypes
import Hummingbird

/// Where the absolute links the server writes (Exist's `next` and `previous`) point: the address clients
/// reach the server at, which behind a TLS proxy is not the one the server listens on.
///
/// In order: `--public-url` when given (its scheme, host, port and path prefix, as the operator states
/// them); else, from a trusted proxy (`--trusted-proxy`) only, its `X-Forwarded-Proto` and
/// `X-Forwarded-Host`; else `http://` and the request's own `Host`. Headers from any other peer are
/// ignored, so a client cannot make the server write links to a host of its choosing.
public enum LinkOrigin {
    /// The origin, with any path prefix and without a trailing slash: `https://health.example/hmon`.
    static func of(_ request: Request, peer: String, configuration: ServerConfiguration) -> String {
        if let publicURL = configuration.publicURL {
            let text = publicURL.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        let ownHost = request.head.authority ?? "localhost"
        guard configuration.trustedProxies.isTrusted(peer) else { return "http://" + ownHost }
        let proto = firstValue(request, "X-Forwarded-Proto").map { $0.lowercased() }
        let host = firstValue(request, "X-Forwarded-Host")
        let scheme = proto == "https" || proto == "http" ? proto! : "http"
        return scheme + "://" + (host.flatMap(Self.plausibleHost) ?? ownHost)
    }

    /// The first value of a header that proxies may send as a list ("https, http").
    private static func firstValue(_ request: Request, _ name: String) -> String? {
        guard let field = HTTPField.Name(name), let value = request.headers[field] else { return nil }
        let first = value.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return first?.isEmpty == false ? first : nil
    }

    /// A host (and port) as a link may carry it: letters, digits, `.-:[]` and nothing else.
    private static func plausibleHost(_ host: String) -> String? {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard !host.isEmpty, host.count <= 255, host.unicodeScalars.allSatisfy(allowed.contains) else { return nil }
        return host
    }

    /// Checks `--public-url`: an absolute http or https URL with a host, and no query or fragment.
    public static func checkPublicURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false, url.query == nil, url.fragment == nil, url.user == nil
        else { return nil }
        return url
    }
}
