import Crypto
import Foundation
import HealthCore

/// Proof Key for Code Exchange (RFC 7636), S256 only: the client that asked for a code proves, when it
/// exchanges the code, that it is the one that asked, so a code intercepted on its way back (another app
/// registered for `hmon://`, a log, a proxy) is worth nothing without the verifier that never left the client.
public enum PKCE {
    /// The one method accepted. `plain` sends the verifier itself as the challenge, so whoever sees the
    /// authorization request can exchange the code: it protects nothing a public client needs protected.
    public static let method = "S256"

    /// Whether `value` has the shape RFC 7636 gives a verifier (§4.1) and a challenge (§4.2):
    /// 43 to 128 characters of `[A-Za-z0-9-._~]`.
    public static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count) && value.utf8.allSatisfy(isUnreserved)
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))` without padding: the S256 challenge of a verifier (§4.2).
    public static func challenge(for verifier: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// Whether `verifier` is well formed and its S256 challenge is `challenge` (§4.6). Compared in constant
    /// time: the challenge is not secret, but nothing about the comparison should depend on the guess.
    public static func verifies(_ verifier: String, challenge: String) -> Bool {
        guard isWellFormed(verifier) else { return false }
        return Secrets.constantTimeEqual(Array(Self.challenge(for: verifier).utf8), Array(challenge.utf8))
    }

    /// A new verifier: 32 bytes from the system's cryptographic generator, base64url-encoded to 43
    /// characters, as §4.1 recommends (256 bits: not worth guessing within a code's 60 s).
    public static func newVerifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
