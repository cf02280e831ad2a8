import Foundation
import HealthCore
import HealthFormats
import HealthModel
import HealthServer
import Logging
import Testing
import SQLiteStorage
import TestSupport

/// Health Auto Export's REST API automation against a real `hmon serve` on a loopback port, on both engines.
///
/// The payloads are shaped as the app's JSON format documents them
/// (https://github.com/Lybron/health-auto-export/wiki/API-Export---JSON-Format: `data.metrics[]` of
/// `{name, units, data: [{qty, date, source}]}`, dates `yyyy-MM-dd HH:mm:ss Z`; Heart Rate's aggregated points
/// `{date, Min, Avg, Max}`), with the metric names and units the app writes.
@Suite(.heavy) struct HealthAutoExportTests {
    /// Every metric hmon keeps, weight in kg and lb, energy in kcal and kJ, a night's sleep as the app sums it,
    /// plus BMI and heart rate, skipped.
    static let everyKeptMetric = """
        {"data": {"metrics": [
          {"name": "weight_body_mass", "units": "kg", "data": [
            {"qty": 72.4, "date": "2026-11-20 07:10:00 +0100", "source": "Withings"}]},
          {"name": "weight_body_mass", "units": "lb", "data": [
            {"qty": 160, "date": "2026-11-21 07:12:00 +0100", "source": "Withings"}]},
          {"name": "body_fat_percentage", "units": "%", "data": [
            {"qty": 18.2, "date": "2026-11-20 07:10:00 +0100", "source": "Withings"}]},
          {"name": "lean_body_mass", "units": "kg", "data": [
            {"qty": 59.2, "date": "2026-11-20 07:10:00 +0100", "source": "Withings"}]},
          {"name": "body_mass_index", "units": "count", "data": [
            {"qty": 23.1, "date": "2026-11-20 07:10:00 +0100", "source": "Withings"}]},
          {"name": "active_energy", "units": "kcal", "data": [
            {"qty": 25, "date": "2026-11-20 08:00:00 +0100", "source": "Apple Watch"}]},
          {"name": "basal_energy_burned", "units": "kJ", "data": [
            {"qty": 4184, "date": "2026-11-20 08:00:00 +0100", "source": "Apple Watch"}]},
          {"name": "dietary_energy", "units": "kJ", "data": [
            {"qty": 2092, "date": "2026-11-20 12:30:00 +0100", "source": "MyFitnessPal"}]},
          {"name": "heart_rate_variability", "units": "ms", "data": [
            {"qty": 45.1, "date": "2026-11-20 03:12:40 +0100", "source": "Apple Watch"}]},
          {"name": "resting_heart_rate", "units": "count/min", "data": [
            {"qty": 52, "date": "2026-11-20 00:00:00 +0100", "source": "Apple Watch"}]},
          {"name": "step_count", "units": "count", "data": [
            {"qty": 812, "date": "2026-11-20 08:01:00 +0100", "source": "Jo's iPhone"}]},
          {"name": "sleep_analysis", "units": "hr", "data": [
            {"date": "2026-11-20 00:00:00 +0100", "totalSleep": 7.5, "asleep": 0, "core": 4, "deep": 1, "rem": 2.5,
             "awake": 0.2, "inBed": 0, "sleepStart": "2026-11-19 23:05:00 +0100", "sleepEnd": "2026-11-20 06:40:00 +0100",
             "source": "Apple Watch"}]},
          {"name": "heart_rate", "units": "count/min", "data": [
            {"date": "2026-11-20 08:00:00 +0100", "Min": 48, "Avg": 61.4, "Max": 88}]},
          {"name": "blood_oxygen_saturation", "units": "%", "data": [
            {"qty": 97, "date": "2026-11-20 03:00:00 +0100", "source": "Apple Watch"}]},
          {"name": "respiratory_rate", "units": "count/min", "data": [
            {"qty": 14.5, "date": "2026-11-20 03:00:00 +0100", "source": "Apple Watch"}]},
          {"name": "body_temperature", "units": "degF", "data": [
            {"qty": 98.6, "date": "2026-11-20 07:30:00 +0100", "source": "Kinsa"}]},
          {"name": "blood_pressure", "units": "mmHg", "data": [
            {"date": "2026-11-20 07:40:00 +0100", "systolic": 128, "diastolic": 82, "source": "Omron"}]}
        ], "workouts": []}}
        """

    static func post(_ world: ServerWorld, _ path: String, _ body: String, token: String? = nil) async throws -> Reply {
        try await world.post(path, token: token, json: body)
    }

    static func link(_ world: ServerWorld) async throws -> String {
        "/health-auto-export/" + (try await world.store.createPushLink(kind: .healthAutoExport, userID: world.alice.id, now: Date())).secret
    }

    static func metric(_ reply: Reply, _ name: String) throws -> [String: Any] {
        try #require((try reply.json["metrics"] as? [String: Any])?[name] as? [String: Any], "\(reply.text)")
    }

    @Test(arguments: StoreEngine.available) func everyKeptMetricLandsInHmonsUnitsAndASecondSendAddsNothing(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.link(world)
            let first = try await Self.post(world, link, Self.everyKeptMetric)
            #expect(first.status == 200, "\(first.text)")
            #expect(try first.json["added"] as? Int == 15)
            #expect(try first.json["refused"] as? Int == 0)
            #expect(try first.json["skipped"] as? [String: Int] == ["body_mass_index": 1, "heart_rate": 1])
            #expect(try Self.metric(first, "weight_body_mass")["added"] as? Int == 2)
            for name in HealthAutoExportMetrics.kept.keys {
                #expect(try Self.metric(first, name)["added"] as? Int ?? 0 >= 1, "\(name)")
            }

            // Weights on the person's scale, in kg: 160 lb is 72.57 kg.
            let weights = try await world.store.weightReadings(userID: world.alice.id, from: 0, to: .max)
            #expect(weights.map(\.kg).sorted().map { ($0 * 100).rounded() / 100 } == [72.4, 72.57])
            // kJ divided as everywhere else: 4184 kJ is 1000 kcal, 2092 kJ 500 kcal.
            let day = try await world.store.energyTotals(userID: world.alice.id, from: 0, to: .max)
            #expect(day.recordedBasal == 1000)
            #expect(day.consumed == 500)
            #expect(day.active == 25)
            // Vital signs: 98.6 °F is 37 °C; a blood pressure is one reading, its diastolic beside the systolic.
            func kept(_ field: String) async throws -> [[String: FieldValue]] {
                try await world.store.readings(ReadingsQuery(field: field), userID: world.alice.id).map(\.data)
            }
            #expect(try await kept(Field.oxygenSaturation).compactMap { $0[Field.oxygenSaturation]?.number } == [97])
            #expect(try await kept(Field.respiratoryRate).compactMap { $0[Field.respiratoryRate]?.number } == [14.5])
            #expect(try await kept(Field.bodyTemperature).compactMap { $0[Field.bodyTemperature]?.number.map { ($0 * 100).rounded() / 100 } } == [37])
            let pressures = try await kept(Field.systolic)
            #expect(pressures.count == 1)
            #expect(pressures.first?[Field.systolic]?.number == 128 && pressures.first?[Field.diastolic]?.number == 82)

            let count = try await world.store.messageCount(userID: world.alice.id)
            let again = try await Self.post(world, link, Self.everyKeptMetric)
            #expect(again.status == 200)
            #expect(try again.json["added"] as? Int == 0)
            #expect(try again.json["alreadyThere"] as? Int == 15)
            #expect(try await world.store.messageCount(userID: world.alice.id) == count)
        }
    }

    @Test(arguments: StoreEngine.available) func anOverlappingResendAddsOnlyTheNewSamples(_ engine: StoreEngine) async throws {
        func steps(_ times: [String]) -> String {
            let points = times.map { #"{"qty": 100, "date": "2026-11-20 \#($0) +0100", "source": "Apple Watch"}"# }
            return #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [\#(points.joined(separator: ","))]}]}}"#
        }
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.link(world)
            #expect(try await Self.post(world, link, steps(["08:00:00", "08:01:00"])).json["added"] as? Int == 2)
            let overlap = try await Self.post(world, link, steps(["08:01:00", "08:02:00", "08:03:00"]))
            #expect(try overlap.json["added"] as? Int == 2)
            #expect(try overlap.json["alreadyThere"] as? Int == 1)
        }
    }

    @Test func aggregatedPointsAreRefusedWithTheReasonAndNotStored() async throws {
        // The app's aggregated shapes: a sum with no source, a sum merged over two sources, Heart Rate's Avg/Min/Max.
        let aggregated = """
            {"data": {"metrics": [
              {"name": "active_energy", "units": "kcal", "data": [
                {"qty": 512.3, "date": "2026-11-20 00:00:00 +0100"},
                {"qty": 498.0, "date": "2026-11-21 00:00:00 +0100", "source": "Apple Watch|Jo's iPhone"}]},
              {"name": "resting_heart_rate", "units": "count/min", "data": [
                {"date": "2026-11-20 00:00:00 +0100", "Min": 50, "Avg": 52, "Max": 55}]}
            ]}}
            """
        try await ServerWorld.run { world in
            let reply = try await Self.post(world, try await Self.link(world), aggregated)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 0)
            #expect(try reply.json["refused"] as? Int == 3)
            let reasons = try #require(try reply.json["refusedReasons"] as? [String: Int])
            #expect(reasons.keys.contains { $0.hasPrefix("active_energy: aggregated by the app") })
            #expect(reasons.keys.contains { $0.hasPrefix("resting_heart_rate: aggregated by the app (Avg/Min/Max") })
            #expect(try Self.metric(reply, "active_energy")["refused"] as? Int == 2)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)
        }
    }

    @Test func aValueOutsideTheReadingRulesIsRefusedAndTheRestKept() async throws {
        let body = """
            {"data": {"metrics": [{"name": "weight_body_mass", "units": "kg", "data": [
              {"qty": 1e300, "date": "2026-11-20 07:10:00 +0100", "source": "Withings"},
              {"qty": 72.4, "date": "2026-11-21 07:10:00 +0100", "source": "Withings"}]}]}}
            """
        try await ServerWorld.run { world in
            let reply = try await Self.post(world, try await Self.link(world), body)
            #expect(reply.status == 200)
            #expect(try reply.json["added"] as? Int == 1)
            #expect(try reply.json["refusedReasons"] as? [String: Int] == ["weight_body_mass: weight outside 1–650 kg": 1])
        }
    }

    @Test(arguments: StoreEngine.available) func aMalformedBodyIsRefusedWholeNamingThePlaceAndKeepsNothing(_ engine: StoreEngine) async throws {
        let badDate = """
            {"data": {"metrics": [
              {"name": "weight_body_mass", "units": "kg", "data": [{"qty": 72.4, "date": "2026-11-20 07:10:00 +0100", "source": "Withings"}]},
              {"name": "step_count", "units": "count", "data": [
                {"qty": 10, "date": "2026-11-20 08:00:00 +0100", "source": "Apple Watch"},
                {"qty": 12, "date": "20.11.2026 08:01", "source": "Apple Watch"}]}
            ]}}
            """
        try await ServerWorld.run(engine: engine) { world in
            let link = try await Self.link(world)
            let reply = try await Self.post(world, link, badDate)
            #expect(reply.status == 400)
            #expect(reply.text.contains(#"data.metrics[1].data[1].date: \"20.11.2026 08:01\" is not yyyy-MM-dd HH:mm:ss Z"#), "\(reply.text)")
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0, "one transaction: the weight before it is not kept")

            let cut = try await Self.post(world, link, String(Self.everyKeptMetric.dropLast(40)))
            #expect(cut.status == 400)
            #expect(cut.text.contains("ends before the JSON text does"), "\(cut.text)")
            let text = try await Self.post(world, link, #"{"data": {"metrics": [{"name": "step_count", "data": [{"qty": "12", "date": "2026-11-20 08:00:00 +0100", "source": "x"}]}]}}"#)
            #expect(text.status == 400)
            #expect(text.text.contains("data.metrics[0].data[0].qty: must be a number"), "\(text.text)")
            let xml = try await Self.post(world, link, "<?xml version=\"1.0\"?><HealthData></HealthData>")
            #expect(xml.status == 400)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 0)
        }
    }

    @Test(arguments: StoreEngine.available) func anAppleHealthExportImportedAfterAPushAddsNoneOfTheSameSamples(_ engine: StoreEngine) async throws {
        let pushed = """
            {"data": {"metrics": [
              {"name": "weight_body_mass", "units": "kg", "data": [{"qty": 72.4, "date": "2026-11-20 07:10:03 +0100", "source": "Withings"}]},
              {"name": "active_energy", "units": "kcal", "data": [{"qty": 0.254, "date": "2026-11-20 08:00:12 +0100", "source": "Apple Watch"}]},
              {"name": "heart_rate_variability", "units": "ms", "data": [{"qty": 45.1, "date": "2026-11-20 03:12:40 +0100", "source": "Apple Watch"}]},
              {"name": "step_count", "units": "count", "data": [{"qty": 812, "date": "2026-11-20 08:01:00 +0100", "source": "Jo's iPhone"}]}
            ]}}
            """
        // The same four samples as the phone's export.xml holds them, and one more.
        let export = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="kg" startDate="2026-11-20 07:10:03 +0100" endDate="2026-11-20 07:10:03 +0100" value="72.4"/>
             <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Apple Watch" unit="kcal" startDate="2026-11-20 08:00:12 +0100" endDate="2026-11-20 08:01:12 +0100" value="0.254"/>
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" unit="ms" startDate="2026-11-20 03:12:40 +0100" endDate="2026-11-20 03:13:41 +0100" value="45.1"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jo's iPhone" unit="count" startDate="2026-11-20 08:01:00 +0100" endDate="2026-11-20 08:02:00 +0100" value="812"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jo's iPhone" unit="count" startDate="2026-11-20 08:02:00 +0100" endDate="2026-11-20 08:03:00 +0100" value="90"/>
            </HealthData>
            """
        try await ServerWorld.run(engine: engine) { world in
            let reply = try await Self.post(world, try await Self.link(world), pushed)
            #expect(try reply.json["added"] as? Int == 4, "\(reply.text)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-hae-export-\(UUID().uuidString).xml")
            try Data(export.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let imported = try await world.store.importFile(file, userID: world.alice.id, dryRun: false, timeZone: .current,
                                                            now: Date(), progress: nil)
            #expect(imported.tally.addedTotal == 1)
            #expect(imported.tally.alreadyThereTotal == 4)
        }
    }

    @Test func theBearerPathTakesAWritersTokenAndRefusesOthers() async throws {
        let body = #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"qty": 5, "date": "2026-11-20 08:00:00 +0100", "source": "Apple Watch"}]}]}}"#
        try await ServerWorld.run { world in
            #expect(try await Self.post(world, "/health-auto-export", body).status == 401)
            let token = try await world.rawToken()
            let reply = try await Self.post(world, "/health-auto-export", body, token: token)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.json["added"] as? Int == 1)
            #expect(try await world.store.messageCount(userID: world.alice.id) == 1)
        }
    }

    @Test func aBodyFarPastTheContractsTenKilobytesIsStreamedIn() async throws {
        // About 2 MB of minute samples: the route's own limit (256 MB), read from a temporary file.
        let points = (0..<20_000).map { minute in
            let hour = minute / 60 % 24, day = 1 + minute / 1440
            return #"{"qty": 1.5, "date": "2026-10-\#(String(format: "%02d", day)) \#(String(format: "%02d:%02d", hour, minute % 60)):00 +0000", "source": "Apple Watch"}"#
        }
        let body = #"{"data": {"metrics": [{"name": "active_energy", "units": "kcal", "data": [\#(points.joined(separator: ","))]}]}}"#
        #expect(body.utf8.count > 1_000_000)
        try await ServerWorld.run { world in
            let reply = try await Self.post(world, try await Self.link(world), body)
            #expect(reply.status == 200, "\(reply.text.prefix(300))")
            #expect(try reply.json["added"] as? Int == 20_000)
        }
    }

    @Test func theSecretIsNeverLoggedAndARevokedOrWrongLinkIs404() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-hae-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalStore(url: folder.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let alice = try await store.createUser(NewAccount(name: "alice", password: "correct horse"))
        let log = WelltoryCallbackTests.LogLines()
        let logger = Logger(label: "test", factory: { _ in WelltoryCallbackTests.CapturingHandler(sink: log) })
        let server = try await RunningServer.start(store: store, configuration: .forTests(rateLimit: .defaultForServe),
                                                   logger: logger)
        let (id, secret) = try await store.createPushLink(kind: .healthAutoExport, userID: alice.id, now: Date())
        let url = server.url.absoluteString + "/health-auto-export/" + secret
        let body = Data(#"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"qty": 5, "date": "2026-11-20 08:00:00 +0100", "source": "Apple Watch"}]}]}}"#.utf8)
        do {
            #expect(try await RawHTTP.send("POST", url, headers: ["Content-Type": "application/json"], body: body).status == 200)
            #expect(try await store.pushLinks().first?.lastUsedAt != nil)
            let wrong = server.url.absoluteString + "/health-auto-export/" + String(secret.reversed())
            #expect(try await RawHTTP.send("POST", wrong, headers: ["Content-Type": "application/json"], body: body).status == 404)
            #expect(try await store.revokePushLink(id: id))
            #expect(try await RawHTTP.send("POST", url, headers: ["Content-Type": "application/json"], body: body).status == 404)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let lines = log.all
        #expect(lines.contains { $0.contains("POST /health-auto-export/… 200") }, "\(lines)")
        #expect(!lines.contains { $0.contains(secret) || $0.contains(String(secret.reversed())) })
    }
}
