import _CryptoExtras
import HealthModel
import Crypto
import Foundation

/// Salted slow password hashes (scrypt), encoded with their parameters: `scrypt$N$r$p$salt$hash`
/// (salt and hash in base64). Because the parameters travel with the hash, raising the cost later
/// keeps old hashes verifiable.
public struct PasswordHasher: Sendable, Equatable {
    /// scrypt's CPU/memory cost N (a power of two), block size r and parallelism p.
    public var rounds: Int
    public var blockSize: Int
    public var parallelism: Int

    public init(rounds: Int, blockSize: Int = 8, parallelism: Int = 1) {
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// N = 2^15, r = 8: 32 MiB and about a tenth of a second per hash, the common interactive setting.
    public static let strong = PasswordHasher(rounds: 1 << 15)
    /// For tests only: the same algorithm at a cost that keeps a test suite fast.
    public static let fastForTests = PasswordHasher(rounds: 1 << 10)

    static let saltBytes = 16
    static let hashBytes = 32

    public func hash(_ password: String) throws -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let derived = try Self.derive(password, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return ["scrypt", String(rounds), String(blockSize), String(parallelism),
                Data(salt).base64EncodedString(), Data(derived).base64EncodedString()].joined(separator: "$")
    }

    /// Whether `password` matches an encoded hash. A malformed hash matches nothing.
    public static func verify(_ password: String, against encoded: String) -> Bool {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt",
              let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              n > 1, n.nonzeroBitCount == 1, n <= 1 << 20, (1...32).contains(r), (1...16).contains(p),
              let salt = Data(base64Encoded: String(parts[4])),
              let expected = Data(base64Encoded: String(parts[5])), expected.count == hashBytes,
              let derived = try? derive(password, salt: Array(salt), rounds: n, blockSize: r, parallelism: p)
        else { return false }
        return Secrets.constantTimeEqual(derived, expected)
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: hashBytes,
                                           rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        return key.withUnsafeBytes { Array($0) }
    }
}
