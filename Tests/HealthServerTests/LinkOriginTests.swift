import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing

/// Issue 26, item 3: behind the TLS proxy the docs recommend, a client following Exist's `next` link stays
/// on HTTPS and on the proxy's host. The links start with `--public-url`, else with what a trusted proxy
/// forwards; another peer's forwarding headers are ignored.
@Suite struct LinkOriginTests {
    static func nextLink(_ world: ServerWorld, headers: [String: String] = [:]) async throws -> String {
        let token = try await world.token(for: "alice")
        let reply = try await world.get("/api/2/attributes/?limit=2&groups=health", token: token, headers: headers)
        #expect(reply.status == 200, "\(reply.text)")
        return try #require(try reply.json["next"] as? String, "\(reply.text)")
    }

    @Test func withAPublicURLEveryLinkStartsWithIt() async throws {
        try await ServerWorld.run(publicURL: URL(string: "https://health.example/hmon/")!) { world in
            let next = try await Self.nextLink(world, headers: ["X-Forwarded-Host": "evil.example"])
            #expect(next.hasPrefix("https://health.example/hmon/api/2/attributes/?"), "\(next)")
            #expect(next.contains("page=2"))
        }
    }

    @Test func aTrustedProxysForwardedSchemeAndHostAreTheLinks() async throws {
        let loopback = try #require(TrustedProxies.Network("127.0.0.1"))
        try await ServerWorld.run(trustedProxies: TrustedProxies([loopback])) { world in
            let next = try await Self.nextLink(world, headers: ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "health.example"])
            #expect(next.hasPrefix("https://health.example/api/2/attributes/?"), "\(next)")
            // A host that is no host is not written into a link.
            let odd = try await Self.nextLink(world, headers: ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "a b\"<x>"])
            #expect(odd.hasPrefix("https://127.0.0.1:\(world.server.port)/"), "\(odd)")
        }
    }

    @Test func anUntrustedPeersForwardingHeadersAreIgnored() async throws {
        try await ServerWorld.run { world in
            let next = try await Self.nextLink(world, headers: ["X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"])
            #expect(next.hasPrefix("http://127.0.0.1:\(world.server.port)/api/2/attributes/?"), "\(next)")
        }
    }
}
