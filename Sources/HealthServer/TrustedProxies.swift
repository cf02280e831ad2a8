import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The proxies whose word on the client's address is taken (`hmon serve --trusted-proxy CIDR`). Behind the
/// TLS proxy the docs recommend, every request comes from the proxy's address, so every user shared one
/// rate-limit and sign-in budget. A request from a trusted proxy is the client's whose
/// address its `X-Forwarded-For` (or `Forwarded: for=`) names last, past any other trusted proxies; from
/// anyone else the headers are ignored, since a client can write them.
public struct TrustedProxies: Sendable, Equatable {
    /// One network: an address's bytes (4 for IPv4, 16 for IPv6) and how many leading bits must match.
    public struct Network: Sendable, Equatable, CustomStringConvertible {
        var bytes: [UInt8]
        var prefix: Int
        public let description: String

        /// `10.0.0.0/8`, `192.168.1.7` (a /32), `::1`, `fd00::/8`; nil for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bytes = Self.bytes(of: parts[0]) else { return nil }
            let prefix: Int
            if parts.count == 2 {
                guard let bits = Int(parts[1]), (0...(bytes.count * 8)).contains(bits) else { return nil }
                prefix = bits
            } else {
                prefix = bytes.count * 8
            }
            self.bytes = bytes
            self.prefix = prefix
            description = text
        }

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) where left > 0 {
                let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
                if a & mask != b & mask { return false }
                left -= 8
            }
            return true
        }

        /// An address's bytes; an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as its IPv4 bytes.
        static func bytes(of text: String) -> [UInt8]? {
            var v4 = in_addr()
            if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes.suffix(4)) }
            return bytes
        }
    }

    public var networks: [Network]

    public init(_ networks: [Network] = []) { self.networks = networks }

    public static let none = TrustedProxies()

    func isTrusted(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Network.bytes(of: address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client's address: `peer` itself, unless `peer` is trusted and the forwarding headers name one.
    func clientAddress(peer: String, forwardedFor: [String], forwarded: [String]) -> String {
        guard isTrusted(peer) else { return peer }
        // Each proxy appends the address it received from; read from the right, past our own proxies.
        var chain = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if chain.isEmpty {
            chain = forwarded.flatMap { $0.split(separator: ",") }.compactMap { element in
                element.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                    .first { $0.lowercased().hasPrefix("for=") }
                    .map { String($0.dropFirst(4)).trimmingCharacters(in: CharacterSet(charactersIn: "\"[]")) }
            }
        }
        for address in chain.reversed() {
            guard Network.bytes(of: address) != nil else { return peer }  // not an address: trust nothing more
            if !isTrusted(address) { return address }
        }
        return peer
    }
}
