import HealthCore
import SAMIContract

/// What `/authorize` and `/token` ask of PKCE (RFC 7636, S256 only), as decisions the routes turn into answers.
enum CodeChallengeRules {
    /// What an authorization request's `code_challenge` and `code_challenge_method` come to.
    enum Decision: Equatable {
        /// Go on; store this challenge with the code (nil: the code has none).
        case accepted(challenge: String?)
        /// Refuse the request, with this sentence on the page.
        case refused(String)
    }

    static func decide(challenge: String?, method: String?, client: KnownClient, responseType: String) -> Decision {
        let challenge = challenge.flatMap { $0.isEmpty ? nil : $0 }, method = method.flatMap { $0.isEmpty ? nil : $0 }
        guard let challenge else {
            if method != nil {
                return .refused("This sign-in link has a code_challenge_method but no code_challenge.")
            }
            // A public client has no secret: without PKCE, whoever intercepts its code on the way back to
            // its redirect (another app registered for the same scheme, a log) can exchange it.
            if client.isPublic && responseType == "code" {
                return .refused("This client has no secret, so its sign-in link must carry a PKCE challenge: code_challenge=BASE64URL(SHA256(code_verifier)) with code_challenge_method=S256.")
            }
            return .accepted(challenge: nil)
        }
        guard responseType == "code" else {
            return .refused("This sign-in link has a code_challenge, which only response_type=code uses: the token flow has no code to protect.")
        }
        // RFC 7636 §4.3: no method means plain, which sends the verifier itself in this link; refused alike.
        guard method == PKCE.method else {
            return .refused("This sign-in link's code_challenge_method must be S256: plain (also the default when none is given) puts the verifier itself in the link, where anyone who sees it can use it.")
        }
        guard PKCE.isWellFormed(challenge) else {
            return .refused("This sign-in link's code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, -, ., _ and ~ (RFC 7636 §4.2).")
        }
        return .accepted(challenge: challenge)
    }

    /// Whether a `/token` request's `code_verifier` fits the code's challenge: the verifier whose S256
    /// challenge it is when the code has one; no verifier when it has none (OAuth 2.1 §4.1.3: a verifier
    /// for a code asked for without a challenge is refused, which defeats a PKCE downgrade, where an
    /// attacker strips the challenge from the request or injects a code obtained without one).
    static func verifierFits(_ verifier: String?, challenge: String?) -> Bool {
        let verifier = verifier.flatMap { $0.isEmpty ? nil : $0 }
        guard let challenge else { return verifier == nil }
        guard let verifier else { return false }
        return PKCE.verifies(verifier, challenge: challenge)
    }
}
