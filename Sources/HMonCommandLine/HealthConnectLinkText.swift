import Foundation

/// What `hmon link add health-connect` prints: the URL on a line of its own, then what to enter in each app.
public enum HealthConnectLinkText {
    /// The path `hmon serve` takes the app's posts at, the secret as its last segment.
    public static func path(secret: String) -> String { "/health-connect/" + secret }

    public static func made(user: String, id: String, url: String, hasBase: Bool, signed: Bool) -> [String] {
        var lines = [
            "Health Connect link \(id) for \(user). Enter this URL in the app:",
            url,
            "  Life Dashboard Companion: Webhooks → add the URL; Data Resolution as you like (buckets are merged); daily totals on.",
            "  HC Webhook:               Webhook URL: the URL; no header is needed (the secret in the URL stands for \(user)).",
            signed ? "  Signing: posts must carry X-Signature: sha256=HMAC-SHA256 of the body (the app's HMAC signing secret: the file's secret)."
                   : "  Signing: off (make the link with --signing-secret-file to refuse unsigned posts).",
        ]
        if !hasBase {
            lines.append("Put hmon serve's address as the phone reaches it before the path (or pass --base-url).")
        }
        lines.append("Keep the URL private: it is shown only this once (hmon keeps only a hash). Revoke it with `hmon link revoke \(id)`.")
        return lines
    }
}
