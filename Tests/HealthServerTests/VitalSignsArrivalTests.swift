import Foundation
import HealthCore
import HealthModel
import Testing
import TestSupport

/// Vital signs through Health Connect, as both bridges send them by default (fixtures from their payload
/// builders, `Fixtures/health-connect/README.md`), on both engines: each kept in hmon's unit, a blood
/// pressure as one reading with its diastolic beside the systolic, and a second send adding nothing.
@Suite struct VitalSignsArrivalTests {
    @Test(arguments: StoreEngine.available)
    func hcWebhooksVitalSignsAreKeptOnceEachBloodPressureOneReading(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await HealthConnectTests.link(world)
            let batch = try HealthConnectTests.fixture("hc-webhook-vitals.json")
            let first = try await HealthConnectTests.post(world, link, batch)
            #expect(first.status == 200, "\(first.text)")
            #expect(try first.json["added"] as? Int == 6, "\(first.text)")
            #expect(try await HealthConnectTests.values(world, .bloodPressureSystolic) == [131, 124])
            #expect(try await HealthConnectTests.values(world, .bloodPressureDiastolic) == [84, 79], "kept in the systolic's readings")
            #expect(try await HealthConnectTests.values(world, .oxygenSaturation) == [96])
            #expect(try await HealthConnectTests.values(world, .bodyTemperature) == [36.8])
            #expect(try await HealthConnectTests.values(world, .skinTemperatureChange) == [-0.31])
            #expect(try await HealthConnectTests.values(world, .respiratoryRate) == [14.2])
            let pressure = try #require(try await world.store.readings(ReadingsQuery(field: Field.systolic, order: .asc), userID: world.alice.id).first)
            #expect(pressure.data[Field.source] == .text("com.omronhealthcare.omronconnect · Omron M7 Intelli IT · Health Connect"), "where it came from is kept")
            let again = try await HealthConnectTests.post(world, link, batch)
            #expect(try again.json["added"] as? Int == 0 && again.json["alreadyThere"] as? Int == 6, "\(again.text)")
        }
    }

    @Test func lifeDashboardCompanionsVitalSignsAreKept() async throws {
        try await ServerWorld.run { world in
            let link = try await HealthConnectTests.link(world)
            let reply = try await HealthConnectTests.post(world, link, try HealthConnectTests.fixture("life-dashboard-companion-vitals.json"))
            #expect(try reply.json["added"] as? Int == 4, "\(reply.text)")
            #expect(try await HealthConnectTests.values(world, .bloodPressureSystolic) == [131])
            #expect(try await HealthConnectTests.values(world, .bloodPressureDiastolic) == [84])
            #expect(try await HealthConnectTests.values(world, .respiratoryRate) == [14.2])
        }
    }

    /// A diastolic out of any body's range refuses its record, by the payload's own name, and keeps the rest.
    @Test func aBloodPressureWithAnImpossibleDiastolicIsRefusedByItsPlace() async throws {
        try await ServerWorld.run { world in
            let link = try await HealthConnectTests.link(world)
            let body = #"{"timestamp":"2026-07-15T19:05:00Z","app_version":"1.9.15","blood_pressure":[{"systolic":120,"diastolic":800,"time":"2026-07-15T06:55:00Z"},{"systolic":118,"diastolic":76,"time":"2026-07-15T07:55:00Z"}]}"#
            let reply = try await HealthConnectTests.post(world, link, body)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 1)
            #expect(reply.text.contains("blood_pressure[0]"), "\(reply.text)")
            #expect(try await HealthConnectTests.values(world, .bloodPressureSystolic) == [118])
        }
    }

    /// What a person sees of them: `reading list --json` names each with its figures, and the overview has a
    /// blood pressure line with its category and an SpO2 line (the built hmon on the server's store file).
    @Test func vitalSignsPostedShowInReadingListAndOnTheOverview() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("vitals")
        defer { home.remove() }
        try await ServerWorld.run { world in
            let link = try await HealthConnectTests.link(world)
            // The fixture's readings, moved to yesterday so the overview's 30 days hold them.
            let yesterday = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-86_400)).prefix(10)
            let batch = try HealthConnectTests.fixture("hc-webhook-vitals.json").replacingOccurrences(of: "2026-07-15", with: String(yesterday))
            #expect(try await HealthConnectTests.post(world, link, batch).json["added"] as? Int == 6)
            func hmon(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
                // In UTC, the zone the fixture's times are dated in: both of yesterday's readings on one day.
                try await ServeCommandTests.run(binary, arguments + ["--db", world.store.location, "--user", "alice"], input: "",
                                                environment: home.environment.merging(["TZ": "UTC"]) { $1 })
            }
            let listed = try await hmon(["reading", "list", "--json"])
            #expect(listed.status == 0, "\(listed.errors)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]], "\(listed.output)")
            let values = rows.compactMap { $0["values"] as? [String: Any] }
            #expect(values.contains { $0[Field.systolic] as? Double == 131 && $0[Field.diastolic] as? Double == 84 }, "one reading, both figures")
            #expect(values.contains { $0[Field.oxygenSaturation] as? Double == 96 })
            let devices = Set(rows.compactMap { ($0["values"] as? [String: Any])?[Field.systolic] != nil ? $0["device"] as? String : nil })
            #expect(devices == ["Activity tracker"], "a cuff's readings are not a scale's")

            let overview = try await hmon(["snapshot", "--screen", "overview", "--size", "100x40"])
            #expect(overview.status == 0, "\(overview.errors)")
            // Yesterday's two readings, 131/84 and 124/79: their means 127.5/81.5 are 128/82, stage 1 by the diastolic.
            let lines = overview.output.split(separator: "\n")
            #expect(lines.contains { $0.contains("BP") && $0.contains("128/82 mmHg") && $0.contains("stage 1 hypertension (ACC/AHA)") })
            #expect(lines.contains { $0.contains("SpO2") && $0.contains("96.0 %") })
            #expect(lines.contains { $0.contains("Body temp.") && $0.contains("36.8 °C") })
        }
    }
}
