import Foundation
import Testing
@testable import HealthModel

/// Every listing command prints JSON with `--json`, one object a row of its table, for scripts.
@Suite struct ListingJSONCommandsTests {
    typealias Home = CommandLineTests.Home

    private func rows(_ outcome: CommandLineTests.Outcome) throws -> [[String: Any]] {
        try #require(outcome.status == 0, "\(outcome.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]], "\(outcome.stdout)")
    }

    @Test func tokenListPrintsJSONWithoutTheTokens() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try rows(try await home.hmon(["token", "list", "--json"])).isEmpty, "no tokens: an empty array, not a sentence")
        let added = try await home.hmon(["token", "add", "--read-only", "--label", "Exist on my phone", "--user", "alice"])
        try #require(added.status == 0, "\(added.stderr)")
        let token = try #require(added.stdout.split(separator: "\n").first { $0.hasPrefix("token:") }?.split(separator: " ").last)
        let listed = try await home.hmon(["token", "list", "--json"])
        let only = try #require(try rows(listed).first)
        #expect(only["user"] as? String == "alice" && only["label"] as? String == "Exist on my phone")
        #expect(only["access"] as? String == "read-only" && (only["made"] as? String)?.count == 10 && only["id"] is String)
        #expect(!listed.stdout.contains(String(token)), "the token itself is never listed")
    }

    @Test func linkListPrintsJSONWithoutTheSecrets() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try rows(try await home.hmon(["link", "list", "--json"])).isEmpty)
        let added = try await home.hmon(["link", "add", "health-auto-export", "--user", "alice", "--base-url", "https://hmon.example.org"])
        try #require(added.status == 0, "\(added.stderr)")
        let listed = try await home.hmon(["link", "list", "--json"])
        let only = try #require(try rows(listed).first)
        #expect(only["kind"] as? String == "health-auto-export" && only["user"] as? String == "alice")
        #expect(only["last_used"] is NSNull && only["authorized"] as? Bool == true && only["made"] is String)
        let url = try #require(added.stdout.split(separator: "\n").first { $0.contains("URL:") }?.split(separator: "/").last)
        #expect(!listed.stdout.contains(String(url)), "the secret in the URL is never listed")
    }

    @Test func deviceTypesPrintJSONWithTheirFields() async throws {
        let home = try Home()
        let listed = try rows(try await home.hmon(["device", "types", "--json"]))
        #expect(listed.count == BuiltInDeviceType.allCases.count)
        let scale = try #require(listed.first { $0["name"] as? String == BuiltInDeviceType.scale.deviceType.name })
        let fields = try #require(scale["fields"] as? [[String: Any]])
        let weight = try #require(fields.first { $0["name"] as? String == Field.weight })
        #expect(weight["type"] as? String == "Double" && weight["unit"] as? String == "kg")
        #expect(scale["id"] as? String == BuiltInDeviceType.scale.deviceType.id)
    }
}
