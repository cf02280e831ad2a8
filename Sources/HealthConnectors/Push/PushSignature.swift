import Crypto
import Foundation

/// The signature an app sends with each body when its link has a signing secret:
/// `X-Signature: sha256=<hex of HMAC-SHA256(secret, raw body)>` (Life Dashboard Companion's form).
public enum PushSignature {
    public static let header = "X-Signature"

    /// Whether `header` signs `body` with `secret`. The comparison takes the same time whatever bytes
    /// differ (swift-crypto's check), so a caller cannot find a valid signature byte by byte.
    public static func isValid(_ header: String?, body: some DataProtocol, secret: String) -> Bool {
        var check = Check(secret: secret)
        check.update(body)
        return check.isValid(header)
    }

    /// The same check over a body read in pieces, each as it arrives: a body spooled to a file is signed
    /// over without being read a second time.
    public struct Check {
        private var code: HMAC<SHA256>

        public init(secret: String) { code = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8))) }

        /// Adds the body's next piece.
        public mutating func update(_ piece: some DataProtocol) { code.update(data: piece) }

        /// Whether `header` signs the pieces added so far. Compared in constant time (swift-crypto's `==`
        /// of a code and bytes).
        public func isValid(_ header: String?) -> Bool {
            guard let header, header.hasPrefix("sha256="), let sent = PushSignature.bytes(hex: header.dropFirst("sha256=".count)) else { return false }
            return code.finalize() == sent
        }
    }

    /// The header's value for `body`: what a test or a shell (`openssl dgst -sha256 -hmac`) sends.
    public static func value(body: some DataProtocol, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        guard hex.count == 2 * SHA256.byteCount else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA256.byteCount)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
