import Foundation
@testable import HealthServer
import Testing

/// Issue 29, case 2: behind a TLS proxy every request came from the proxy's address, so every user shared
/// one budget. `--trusted-proxy` makes a trusted proxy's `X-Forwarded-For` (or `Forwarded`) the client's
/// address; anyone else's such header is ignored, since a client can write it.
@Suite struct TrustedProxyTests {
    @Test func networksParseAndMatchByPrefix() throws {
        let proxies = TrustedProxies(["10.0.0.0/8", "127.0.0.1", "fd00::/8"].compactMap(TrustedProxies.Network.init))
        #expect(proxies.networks.count == 3)
        for bad in ["10.0.0.0/33", "example.com", "1.2.3", "::1/129", ""] { #expect(TrustedProxies.Network(bad) == nil, "\(bad)") }
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.7"], forwarded: []) == "203.0.113.7")
        #expect(proxies.clientAddress(peer: "11.1.2.3", forwardedFor: ["203.0.113.7"], forwarded: []) == "11.1.2.3",
                "an untrusted peer's header is ignored")
        // Read from the right, past our own proxies; a client's own claim further left is not taken.
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.1, 203.0.113.7, 10.9.9.9"], forwarded: []) == "203.0.113.7")
        #expect(proxies.clientAddress(peer: "::ffff:127.0.0.1", forwardedFor: ["203.0.113.8"], forwarded: []) == "203.0.113.8")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: [], forwarded: [#"for="[2001:db8::1]";proto=https"#]) == "2001:db8::1")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["not-an-address"], forwarded: []) == "127.0.0.1")
    }

    /// Anonymous requests are limited per address: behind a trusted proxy, per client.
    @Test func behindATrustedProxyEachClientHasItsOwnBudget() async throws {
        let proxies = TrustedProxies([TrustedProxies.Network("127.0.0.1")!])
        try await ServerWorld.run(rateLimit: RateLimit("3/1000"), trustedProxies: proxies) { (world: ServerWorld) async throws in
            func status(from client: String) async throws -> Int {
                try await world.get("/v1.1/users/self", headers: ["X-Forwarded-For": client]).status
            }
            for _ in 0..<3 { #expect(try await status(from: "203.0.113.7") == 401) }
            #expect(try await status(from: "203.0.113.7") == 429, "the first client's budget is spent")
            #expect(try await status(from: "203.0.113.8") == 401, "another client behind the same proxy is not")
        }
        // Without --trusted-proxy the header is the client's own word: one budget for the peer.
        try await ServerWorld.run(rateLimit: RateLimit("3/1000")) { (world: ServerWorld) async throws in
            for client in ["203.0.113.7", "203.0.113.8", "203.0.113.9"] {
                #expect(try await world.get("/v1.1/users/self", headers: ["X-Forwarded-For": client]).status == 401)
            }
            #expect(try await world.get("/v1.1/users/self", headers: ["X-Forwarded-For": "203.0.113.10"]).status == 429)
        }
    }
}
