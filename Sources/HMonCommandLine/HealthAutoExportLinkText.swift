import Foundation
import HealthCore
import HealthModel

/// What `hmon link add` and `hmon link list` print.
public enum HealthAutoExportLinkText {
    /// The path `hmon serve` takes the app's posts at, the secret as its last segment.
    public static func path(secret: String) -> String { "/health-auto-export/" + secret }

    /// The lines printed once a link is made: what to enter in the app.
    public static func made(user: String, id: String, url: String, hasBase: Bool) -> [String] {
        var lines = [
            "Health Auto Export link \(id) for \(user). In the app, Automations → New Automation:",
            "  Automation Type:  REST API",
            "  URL:              \(url)",
            "  Headers:          none (the secret in the URL stands for \(user); the app sets Content-Type: application/json)",
            "  Export Format:    JSON",
            "  Period:           Since Last Sync",
            "  Aggregation:      off (\"Summarize Data\" off): each Apple Health sample with its source; aggregated points are refused",
        ]
        if !hasBase {
            lines.append("Put hmon serve's address as the phone reaches it before the path (or pass --base-url).")
        }
        lines.append("Keep the URL private: it is shown only this once (hmon keeps only a hash). Revoke it with `hmon link revoke \(id)`.")
        return lines
    }

    /// One line per link: id, kind, user, made, last used.
    public static func list(_ links: [PushLink]) -> [String] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return links.map { link in
            let used = link.lastUsedAt.map { "last used \(formatter.string(from: $0))" } ?? "never used"
            return "\(link.id)  \(link.kind.rawValue)  \(link.userName)  made \(formatter.string(from: link.createdAt))  \(used)"
        }
    }
}
