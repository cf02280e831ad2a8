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
}
