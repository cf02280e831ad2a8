import Crypto
import HealthModel
import Foundation

/// Random identifiers and secrets, and the one-way hash under which secrets are stored.
package enum Secrets {
    /// `count` random bytes from the system's cryptographic generator, as lowercase hex.
    package static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(count * 2)
        for _ in 0..<count {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text += hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
        }
        return text
    }

    /// A new 32-hex id (128 random bits), the shape SAMI ids have.
    package static func newID() -> String { randomHex(bytes: 16) }

    /// A new bearer token or client secret: 256 random bits.
    package static func newToken() -> String { randomHex(bytes: 32) }

    /// SHA-256 of a high-entropy secret, hex. Tokens are random, so a fast hash is enough to make a
    /// stolen database useless for signing in; passwords are low-entropy and use `PasswordHasher`.
    package static func sha256Hex(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { hexDigits[Int($0 >> 4)] + hexDigits[Int($0 & 0x0F)] }.joined()
    }

    /// Compares two byte strings in time that depends only on their lengths.
    package static func constantTimeEqual<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    private static let hexDigits = (0..<16).map { String($0, radix: 16) }
}
