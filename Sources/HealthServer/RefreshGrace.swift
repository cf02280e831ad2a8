import Foundation
import HealthCore
import SAMIContract
import HealthModel
import Synchronization

/// The answers to refresh-token exchanges of the last `window` seconds, on Exist's `/oauth2/access_token`.
///
/// Refresh tokens rotate, and presenting a spent one revokes the whole sign-in (a replay, RFC 6749 §10.4).
/// A script that times out while its refresh is answered, and sends it again, is no thief: Exist's clients
/// do exactly that. Within the window, the same client presenting the same refresh token gets the same new
/// pair again instead of a revoked sign-in (the reuse interval Auth0 and Okta offer). Past it, a replay
/// revokes as before. SAMI's `/token` keeps no such window.
///
/// Kept in this process's memory only: a retry that reaches another `hmon serve` on the same PostgreSQL is
/// a replay there. Keys are the tokens' SHA-256, as the store keeps them; the answers hold the new tokens,
/// for `window` seconds at most.
final class RefreshGrace: Sendable {
    /// `docs/server.md` states this figure.
    static let window: TimeInterval = 60

    private struct Entry {
        var clientID: String
        var answer: SAMI.TokenResponse
        var until: Date
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Past it the map starts over (expired entries go at every write first); a burst of refreshes cannot grow
    /// it without bound, and a retry that finds its answer gone is a replay, as without the window.
    private let capacity = 10_000

    /// The answer given to `refreshToken`'s exchange by `clientID` within the window; nil otherwise.
    func answer(for refreshToken: String, clientID: String, now: Date) -> SAMI.TokenResponse? {
        let key = Secrets.sha256Hex(refreshToken)
        return entries.withLock { entries in
            guard let entry = entries[key], entry.clientID == clientID, now < entry.until else { return nil }
            return entry.answer
        }
    }

    /// Keeps the answer to `refreshToken`'s exchange for the window.
    func remember(_ answer: SAMI.TokenResponse, for refreshToken: String, clientID: String, now: Date) {
        let key = Secrets.sha256Hex(refreshToken)
        entries.withLock { entries in
            entries = entries.filter { now < $0.value.until }
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = Entry(clientID: clientID, answer: answer, until: now.addingTimeInterval(Self.window))
        }
    }
}
