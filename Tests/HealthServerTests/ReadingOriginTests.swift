import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing
import TestSupport

/// Each weigh-in says where it came from: one measurement that arrives by two paths (openScale writes to Health
/// Connect as well as to its own webhook) is two readings a person can tell apart (shown by Weights' "From"
/// column and `reading list`, `ReadingTextTests`). The bodies are the apps' own shapes: HC Webhook's raw weight record with the `metadata`
/// its `SyncManager` appends, Life Dashboard Companion's with its `source`, openScale-sync's insert.
@Suite struct ReadingOriginTests {
    /// 80.4 kg at 06:45 UTC, as openScale wrote it to Health Connect and HC Webhook sent it.
    static let hcWebhookWeight = #"{"timestamp":"2026-11-20T07:00:05.318Z","app_version":"1.9.15","weight":[{"kilograms":80.4,"time":"2026-11-20T06:45:00Z","metadata":{"data_origin":"com.health.openscale","recording_method":"manual_entry"}}],"body_fat":[{"percentage":21.0,"time":"2026-11-20T06:45:00Z","metadata":{"data_origin":"com.withings.wiscale2","recording_method":"automatically_recorded","device":{"manufacturer":"Withings","model":"Body+","type":9}}}]}"#

    @Test(arguments: StoreEngine.available) func aWeighInFromHealthConnectAndOpenScaleEachSayWhereItCameFrom(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let hub = try await world.post(try await HealthConnectTests.link(world), json: Self.hcWebhookWeight)
            #expect(hub.status == 200, "\(hub.text)")
            let direct = try await world.post(try await OpenScaleTests.link(world),
                                              json: OpenScaleTests.measurement("insert", date: "2026-11-20T06:45:00.000Z", weight: 80.4))
            #expect(direct.status == 200, "\(direct.text)")

            // The weigh-in is one measurement by two ways: the scale's own is counted, the hub's kept aside
            // (`OneMeasurementTests`), and both say where they came from.
            let readings = try await world.store.readings(ReadingsQuery(order: .asc), userID: world.alice.id)
            let aside = try await world.store.asideReadings(userID: world.alice.id, from: .min, to: .max, mids: nil)
            let origins = Set((readings + aside.map(\.message)).compactMap { $0.data[Field.source]?.textValue })
            #expect(origins == ["openScale · Health Connect", "Withings · Withings Body+ · Health Connect", "openScale · ana"],
                    "the writing app by the name people know, the device when the record names one, then the way it came")

        }
    }

    /// A meal and a day's steps from a phone say where they came from too (the food log and the activity tracker
    /// keep a source since schema 28): Life Dashboard Companion's nutrition record with its `source`, and HC
    /// Webhook's default daily total, which names no app (Health Connect made it).
    @Test(arguments: StoreEngine.available) func aMealAndADaysStepsFromAPhoneSayWhereTheyCameFrom(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await HealthConnectTests.link(world)
            let meal = PushDoorHardeningTests.companion(["nutrition": [
                #"{"calories":450.0,"name":"Oatmeal","meal_type":"breakfast","start_time":"2026-11-20T08:00:00Z","end_time":"2026-11-20T08:30:00Z","uuid":"n-1","source":"com.myfitnesspal.android"}"#,
            ]])
            #expect(try await world.post(link, json: meal).status == 200)
            #expect(try await HealthConnectTests.post(world, link, try HealthConnectTests.fixture("hc-webhook-sync-1.json")).status == 200)

            let meals = try await world.store.readings(ReadingsQuery(field: Field.calories, order: .asc), userID: world.alice.id)
            #expect(meals.map { $0.data[Field.source]?.textValue } == ["MyFitnessPal · Health Connect"])
            let steps = try await world.store.readings(ReadingsQuery(field: ReadingKind.steps.field, order: .asc), userID: world.alice.id)
            #expect(!steps.isEmpty && steps.allSatisfy { $0.data[Field.source]?.textValue == "Health Connect" },
                    "\(steps.map(\.data))")
        }
    }

    @Test func lifeDashboardCompanionsSourceAndABucketsSourcesNameTheRecordingApp() {
        #expect(HealthConnectPayload.origin(of: ["source": "com.withings.wiscale2", "uuid": "d4f5"]) == "Withings · Health Connect")
        #expect(HealthConnectPayload.origin(of: ["sources": ["com.google.android.apps.fitness"], "avg": 38.6]) == "Google Fit · Health Connect")
        #expect(HealthConnectPayload.origin(of: ["count": 4100]) == "Health Connect", "a day's total names no app: Health Connect made it")
        #expect(HealthConnectPayload.origin(of: ["metadata": ["data_origin": "org.example.scale"]]) == "org.example.scale · Health Connect",
                "an app not listed keeps its package name")
    }

    @Test func anOriginIsSafeForATerminalAndShort() {
        let hostile = ReadingOrigin.text(["\u{1B}[2Jevil\u{202E}app", String(repeating: "x", count: 500), "Health Connect"])
        #expect(!hostile.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(hostile)")
        #expect(hostile.count <= ReadingOrigin.maximumLength)
        #expect(ReadingOrigin.text(["Health Connect", nil, "", "health connect"]) == "Health Connect", "a repeated or empty part is left out")
    }
}
