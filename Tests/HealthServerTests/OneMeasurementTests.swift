import Foundation
import HealthConnectors
import HealthCore
import HealthModel
import Testing
import TestSupport

/// One measurement, one reading: openScale writes each weigh-in to Health Connect as well as to its own webhook,
/// so a person with both links gets it twice. The bodies are the apps' own shapes: HC Webhook's raw weight
/// record as its `SyncManager` writes it (the scale app's Float widened to a double by Health Connect) and
/// openScale-sync's insert and delete. Posted to a real `hmon serve`, on both engines.
@Suite struct OneMeasurementTests {
    /// 80.4 kg at 06:45 UTC as openScale wrote it to Health Connect and HC Webhook sent it.
    static let hubWeighIn = #"{"timestamp":"2026-11-20T07:00:05.318Z","app_version":"1.9.15","weight":[{"kilograms":80.4000015258789,"time":"2026-11-20T06:45:00Z","metadata":{"data_origin":"com.health.openscale","recording_method":"manual_entry"}}]}"#
    static let directWeighIn = OpenScaleTests.measurement("insert", date: "2026-11-20T06:45:00.000Z", weight: 80.4)
    static let day = (from: Date(timeIntervalSince1970: 1_795_132_800).millisecondsSince1970,   // 2026-11-20T00:00Z
                      to: Date(timeIntervalSince1970: 1_795_219_200).millisecondsSince1970)

    static func counted(_ world: ServerWorld) async throws -> [WeightReading] {
        try await world.store.weightReadings(userID: world.alice.id, from: day.from, to: day.to)
    }

    static func countedSources(_ world: ServerWorld) async throws -> [String?] {
        try await world.store.readings(ReadingsQuery(field: Field.weight, order: .asc), userID: world.alice.id)
            .map { $0.data[Field.source]?.textValue }
    }

    static func aside(_ world: ServerWorld) async throws -> [AsideReading] {
        try await world.store.asideReadings(userID: world.alice.id, from: .min, to: .max, mids: nil)
    }

    @Test(arguments: StoreEngine.available) func aWeighInByTwoWaysIsCountedOnceByTheScalesOwnLinkAndThePreferenceSwapsIt(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let hub = try await HealthConnectTests.link(world)
            let direct = try await OpenScaleTests.link(world)
            #expect(try await world.post(hub, json: Self.hubWeighIn).status == 200)
            #expect(try await world.post(direct, json: Self.directWeighIn).status == 200)

            #expect(try await Self.counted(world).map(\.kg) == [80.4], "one weigh-in on the day, the scale's own")
            #expect(try await Self.countedSources(world) == ["openScale · ana"])
            var aside = try await Self.aside(world)
            #expect(aside.map(\.path) == [.healthConnect])
            #expect(aside.first?.message.data[Field.source]?.textValue == "openScale · Health Connect", "kept whole, saying where it came from")

            // The phone sends its record again: it stays aside, and nothing is counted twice.
            #expect(try await world.post(hub, json: Self.hubWeighIn).status == 200)
            #expect(try await Self.counted(world).count == 1)
            #expect(try await Self.aside(world).count == 1)

            let service = LocalHealthService(store: world.store)
            _ = try await service.actingAs(name: world.alice.name)
            #expect(try await service.preferSource(.healthConnect, for: .weight) == 1)
            #expect(try await Self.countedSources(world) == ["openScale · Health Connect"])
            #expect(try await Self.counted(world).map(\.kg) == [80.4000015258789])
            #expect(try await Self.aside(world).map(\.path) == [.openScale])
            #expect(try await service.sourceOrders()[.weight] == SourceOrder(preferred: .healthConnect))

            #expect(try await service.preferSource(nil, for: .weight) == 1)
            #expect(try await Self.countedSources(world) == ["openScale · ana"], "and back")

            // Deleting the counted copy by hand leaves the measurement: its twin is counted instead; both back as they were.
            let countedID = try #require(try await world.store.readings(ReadingsQuery(field: Field.weight), userID: world.alice.id).first?.mid)
            try await service.deleteReading(id: countedID)
            #expect(try await Self.countedSources(world) == ["openScale · Health Connect"])
            #expect(try await Self.aside(world).isEmpty)
            #expect(try await world.post(direct, json: Self.directWeighIn).status == 200, "openScale sends it again")
            #expect(try await Self.countedSources(world) == ["openScale · ana"])

            // openScale deletes its weigh-in: the copy Health Connect brought is counted again, not lost.
            let deleted = try await world.post(direct, json: #"{"event":"delete","userId":1,"date":"2026-11-20T06:45:00.000Z"}"#)
            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(try await Self.countedSources(world) == ["openScale · Health Connect"])
            aside = try await Self.aside(world)
            #expect(aside.isEmpty)
        }
    }

    @Test(arguments: StoreEngine.available) func whicheverArrivesFirstTheScalesOwnIsCountedAndOtherWeighInsAreNotTouched(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let hub = try await HealthConnectTests.link(world)
            let direct = try await OpenScaleTests.link(world)
            #expect(try await world.post(direct, json: Self.directWeighIn).status == 200)
            // Another weigh-in ten minutes later only Health Connect saw, and a weight typed by hand at 06:45.
            let later = Self.hubWeighIn.replacingOccurrences(of: "06:45:00Z", with: "06:55:00Z")
                .replacingOccurrences(of: "80.4000015258789", with: "80.1")
            #expect(try await world.post(hub, json: Self.hubWeighIn).status == 200)
            #expect(try await world.post(hub, json: later).status == 200)
            let service = LocalHealthService(store: world.store)
            _ = try await service.actingAs(name: world.alice.name)
            let scale = try await world.store.readings(ReadingsQuery(field: Field.weight), userID: world.alice.id).first?.sdid
            _ = try await service.post(NewMessage(sdid: try #require(scale), ts: Date(timeIntervalSince1970: 1_795_157_100).millisecondsSince1970,
                                                  data: [Field.weight: .number(80.4)]))

            #expect(try await Self.counted(world).map(\.kg).sorted() == [80.1, 80.4, 80.4],
                    "the scale's own 80.4, the typed 80.4 (a person's own entry is theirs) and the later 80.1")
            #expect(try await Self.aside(world).map(\.path) == [.healthConnect])
        }
    }

    /// The night of 14–15 July 2026 from the ring and through the phone: HC Webhook's third sync of the day
    /// (`hc-webhook-sync-3.json`, built from its `SyncManager`: a Pixel Watch session 21:10–04:42 UTC, 432 min
    /// asleep by its stage numbers) and Oura's sleep document for the same night (Oura API v2's `sleep` shape,
    /// 21:05–04:45 UTC, 425 min asleep). One night: the day shows Oura's 7 h 05, not the two's mean (7 h 08.5).
    @Test(arguments: StoreEngine.available) func theRingsNightAndThePhonesCopyOfItAreOneNightTheRingsCounted(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let hub = try await HealthConnectTests.link(world)
            #expect(try await HealthConnectTests.post(world, hub, try HealthConnectTests.fixture("hc-webhook-sync-3.json")).status == 200)
            var night = OuraExamples.Night(id: "8f1c3d2e-0a4b-4c5d-9e6f-7a8b9c0d1e2f", day: "2026-07-15",
                                           bedtimeStart: "2026-07-14T23:05:00+02:00", bedtimeEnd: "2026-07-15T06:45:00+02:00")
            (night.totalSleep, night.timeInBed, night.light, night.deep, night.rem, night.awake) = (25_500, 27_600, 13_500, 4_800, 7_200, 2_100)
            let document = try JSONDecoder().decode(OuraSleep.self, from: try JSONSerialization.data(withJSONObject: night.json))
            let service = LocalHealthService(store: world.store)
            _ = try await service.actingAs(name: world.alice.name)
            let tally = try await OuraArrival.store(OuraNights([document]).readings, service: service, userID: world.alice.id, now: world.clock.now)
            #expect(tally.refused.isEmpty)

            let nights = try await world.store.readings(ReadingsQuery(field: Field.sleepMinutes), userID: world.alice.id)
            #expect(nights.map { $0.data[Field.sleepMinutes]?.number } == [425])
            #expect(try await Self.aside(world).map { $0.message.data[Field.sleepMinutes]?.number } == [432])
            let dayStart = Date(timeIntervalSince1970: 1_784_073_600).millisecondsSince1970   // 2026-07-15T00:00Z
            let totals = try await world.store.dayTotals(userID: world.alice.id, dayStarts: [dayStart], end: dayStart + 86_400_000)
            let slept = try #require(totals[0])[ReadingKind.sleep]
            #expect(slept.count == 1 && slept.sum == 425, "the day's sleep is the ring's 7 h 05: \(slept)")
        }
    }

    /// A phone hub's file counts after a device's own link too: Health Auto Export's post (its documented
    /// `data.metrics[]` shape) with the weigh-in a scale's own link already brought is settled after the import,
    /// and a file import after both (`hmon import`'s way) is kept aside as well.
    @Test(arguments: StoreEngine.available) func aHealthAutoExportPostAndAFileImportCountAfterTheScalesOwnLink(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            #expect(try await world.post(try await OpenScaleTests.link(world), json: Self.directWeighIn).status == 200)
            let exported = #"{"data": {"metrics": [{"name": "weight_body_mass", "units": "kg", "data": [{"qty": 80.4, "date": "2026-11-20 07:45:30 +0100", "source": "openScale"}]}], "workouts": []}}"#
            let reply = try await HealthAutoExportTests.post(world, try await HealthAutoExportTests.link(world), exported)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try await Self.counted(world).map(\.kg) == [80.4])
            #expect(try await Self.countedSources(world) == ["openScale · ana"])
            #expect(try await Self.aside(world).map(\.path) == [.healthAutoExport])

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("weights-\(UUID().uuidString).csv")
            try "date,weight\n2026-11-20 06:45:40,80.4\n".write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let service = LocalHealthService(store: world.store)
            _ = try await service.actingAs(name: world.alice.name)
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let imported = try await world.store.importFile(file, userID: world.alice.id, timeZone: utc.timeZone,
                                                            options: ImportOptions(path: .imported), now: Date())
            #expect(imported.tally.added[.weight] == 1)
            try await service.settleDuplicates(after: imported.tally)
            #expect(try await Self.counted(world).map(\.kg) == [80.4])
            #expect(try await Self.aside(world).map(\.path).sorted { $0.rawValue < $1.rawValue } == [.healthAutoExport, .imported])
        }
    }
}
