import Foundation

/// What `hmon link add openscale` prints: the URL on a line of its own, then what to enter in openScale-sync.
public enum OpenScaleLinkText {
    /// The path `hmon serve` takes the app's posts at, the secret as its last segment.
    public static func path(secret: String) -> String { "/openscale/" + secret }

    public static func made(user: String, id: String, url: String, hasBase: Bool) -> [String] {
        var lines = [
            "openScale link \(id) for \(user). Enter this URL in openScale-sync:",
            url,
            "  openScale-sync: Webhook → URL: the URL; Authorization header: none needed (the secret in the URL stands for \(user)).",
            "  Press Test in the app: hmon answers and keeps nothing. Weigh-ins added, edited, deleted or cleared there are mirrored here.",
        ]
        if !hasBase {
            lines.append("Put hmon serve's address as the phone reaches it before the path (or pass --base-url).")
        }
        lines.append("Keep the URL private: it is shown only this once (hmon keeps only a hash). Revoke it with `hmon link revoke \(id)`.")
        return lines
    }
}
