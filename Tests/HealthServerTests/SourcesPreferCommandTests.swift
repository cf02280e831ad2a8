import Foundation
import HealthCore
import HealthModel
import SQLiteStorage
import Testing
import TestSupport

/// `hmon sources prefer KIND SOURCE` through the built binary on an SQLite file: the weigh-in openScale's own
/// link and Health Connect both brought is counted once, and preferring a source changes which copy every
/// listing and figure uses, and back; `reading list --aside` shows the other copy.
@Suite(.heavy) struct SourcesPreferCommandTests {
    @Test func preferringASourceSwapsTheCountedCopyAndTheDefaultSwapsItBack() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("sources-prefer")
        defer { home.remove() }
        let db = home.folder.appendingPathComponent("hmon.sqlite").path
        func hmon(_ arguments: [String], input: String = "") async throws -> (status: Int32, output: String, errors: String) {
            try await ServeCommandTests.run(binary, arguments + ["--db", db], input: input, environment: home.environment)
        }
        #expect(try await hmon(["user", "add", "alice", "--password-stdin"], input: "correct horse\n").status == 0)

        // What openScale-sync and HC Webhook's posts store (`OneMeasurementTests` posts them to a real server).
        let store = try LocalStore(url: URL(fileURLWithPath: db), passwordHasher: .fastForTests)
        let service = LocalHealthService(store: store)
        _ = try await service.actingAs(name: "alice")
        _ = try await store.createPushLink(kind: .openScale, userID: try #require(service.userID), now: Date())
        let scale = try await service.device(recording: Field.weight, orMake: .scale).device
        let ts = Date(timeIntervalSince1970: 1_795_157_100).millisecondsSince1970   // 2026-11-20T06:45Z
        for (mid, kg, origin, path) in [("0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f01", 80.4000015258789, "openScale · Health Connect", ReadingPath.healthConnect),
                                        ("0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f02", 80.4, "openScale · ana", .openScale)] {
            _ = try await service.applyArrival([.put(mid: mid, message: NewMessage(sdid: scale.id, ts: ts, data: [
                Field.weight: .number(kg), Field.source: .text(origin)]))], path: path, now: Date())
        }
        func listedSources(_ extra: [String] = []) async throws -> [String] {
            let listed = try await hmon(["reading", "list", "--json", "--user", "alice"] + extra)
            #expect(listed.status == 0, "\(listed.errors)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]], "\(listed.output)")
            return rows.compactMap { $0["source"] as? String }
        }
        #expect(try await listedSources() == ["openScale · ana"])

        let shown = try await hmon(["sources"])
        #expect(shown.output.contains("alice  weigh-ins: openScale › Withings › Health Connect › Health Auto Export › a file import (default)"),
                "\(shown.output)")

        let preferred = try await hmon(["sources", "prefer", "weight", "health-connect", "--user", "alice"])
        #expect(preferred.status == 0, "\(preferred.errors)")
        #expect(preferred.output.contains("alice's weigh-ins now count Health Connect › openScale"), "\(preferred.output)")
        #expect(preferred.output.contains("1 reading kept aside is counted in place of its twin"))
        #expect(try await listedSources() == ["openScale · Health Connect"])
        let aside = try await hmon(["reading", "list", "--aside", "--json", "--user", "alice"])
        #expect(aside.output.contains("\"came_by\" : \"openscale\"") || aside.output.contains("\"came_by\":\"openscale\""), "\(aside.output)")
        #expect(try await listedSources(["--aside"]) == ["openScale · ana"])
        #expect(try await hmon(["sources"]).output.contains("(you chose Health Connect)"))

        #expect(try await hmon(["sources", "prefer", "weight", "default", "--user", "alice"]).status == 0)
        #expect(try await listedSources() == ["openScale · ana"], "and back")

        let refused = try await hmon(["sources", "prefer", "sleep", "withings", "--user", "alice"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("source withings brings no nights: pass one of oura, health-connect, health-auto-export, import, or default"),
                "\(refused.errors)")
        let noSteps = try await hmon(["sources", "prefer", "steps", "openscale", "--user", "alice"])
        #expect(noSteps.status != 0)
        #expect(noSteps.errors.contains("source openscale brings no steps per day: pass one of health-connect, health-auto-export, import, or default"),
                "\(noSteps.errors)")
        #expect(shown.output.contains("alice  steps per day: Health Connect › Health Auto Export › a file import (default)"), "\(shown.output)")
        let unknown = try await hmon(["sources", "prefer", "weight", "fitbit", "--user", "alice"])
        #expect(unknown.status != 0 && unknown.errors.contains("source fitbit is not one of hmon's"), "\(unknown.errors)")
    }
}
