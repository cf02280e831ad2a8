import Foundation
import GRDB
import Testing
@testable import HealthCore
@testable import HealthModel
import TestSupport

/// Issue 29, case 1: one stored number of `1e300` in `steps` or `restingHeartRate` made
/// `/api/2/attributes/with-values` trap in `Int(_:)` and took `hmon serve` down, again after every restart.
/// Two promises now: every number has a range at the door, and no number already stored can trap.
@Suite struct StoredExtremesTests {
    /// Numbers no body or sensor produces, and the edges just past a range.
    static let extremes: [Double] = [1e300, -1e300, 1e13, -1]

    /// Every numeric field of every built-in device type, posted through SAMI's `POST /v1.1/messages` at
    /// numbers outside its range: refused with 400 naming the field, and nothing stored.
    @Test(arguments: StoreEngine.available) func everyNumericFieldRefusesAnExtremeAtTheDoor(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.token()
            for type in BuiltInDeviceType.allCases {
                let device = try await world.device(type, named: "extreme \(type)", for: world.alice)
                for spec in type.manifest.fields where spec.type != .string {
                    for value in Self.extremes {
                        // -1 is a legal value of a few fields (none today); 0-bounded ones must refuse it.
                        if value == -1, ReadingRules.range(of: spec.name).map({ $0.lowerBound < 0 }) ?? true { continue }
                        let reply = try await world.post("/v1.1/messages", token: token,
                                                         json: #"{"sdid":"\#(device.id)","data":{"\#(spec.name)":\#(value)}}"#)
                        #expect(reply.status == 400, "\(type) \(spec.name) = \(value): \(reply.text)")
                        #expect(reply.text.contains(spec.name), "the refusal names the field: \(reply.text)")
                        #expect(reply.text.count < 400, "the answer stays short: \(reply.text)")
                    }
                }
                let stored = try await world.store.lastMessages(deviceID: device.id, userID: world.alice.id, count: 5)
                #expect(stored.isEmpty, "\(type): \(stored)")
            }
        }
    }

    /// Exist's `update` is a door too: a token that owns `steps` cannot write 1e300 steps.
    @Test(arguments: StoreEngine.available) func existsUpdateRefusesAnExtremeStepCount(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken()
            let acquired = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"template":"steps"}]"#)
            #expect(acquired.status == 200, "\(acquired.text)")
            let day = world.today.adding(days: -1).description
            let reply = try await world.post("/api/2/attributes/update/", token: token,
                                             json: #"[{"name":"steps","date":"\#(day)","value":1e300}]"#)
            #expect(reply.success.isEmpty, "\(reply.text)")
            #expect((reply.failed.first?["error"] as? String)?.contains("steps") == true, "\(reply.text)")
        }
    }

    /// A reading written before today's ranges existed (straight into the table, as an older hmon, a copy or
    /// another program may have left it): every route that computes with it answers, and the server lives on.
    @Test(arguments: StoreEngine.available) func anExtremeAlreadyStoredCrashesNoRoute(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let watch = try await world.device(.activityTracker, named: "Watch", for: world.alice)
            let yesterday = world.today.adding(days: -1).start(in: world.calendar).addingTimeInterval(9 * 3600)
            try await Self.plant(in: world, device: watch, ts: yesterday.millisecondsSince1970,
                                 json: #"{"steps":1e300,"restingHeartRate":1e300,"heartRate":-1e300,"activeEnergy":1e300}"#)
            try await Self.plant(in: world, device: world.aliceScale, ts: yesterday.millisecondsSince1970 - 60_000,
                                 json: #"{"weight":1e300,"fatRatio":-1e300}"#)
            // Two that overflow a day's sum to infinity, which JSON cannot carry.
            for offset: Int64 in [120_000, 180_000] {
                try await Self.plant(in: world, device: watch, ts: yesterday.millisecondsSince1970 - offset, json: #"{"activeEnergy":1.7e308}"#)
            }
            let token = try await world.rawToken()
            let paths = ["/api/2/attributes/with-values/", "/api/2/attributes/values/?attribute=steps",
                         "/api/2/attributes/values/?attribute=heartrate_resting", "/api/2/averages/",
                         "/api/2/correlations/", "/api/2/insights/",
                         "/v1.1/messages/last?sdids=\(watch.id),\(world.aliceScale.id)&count=5"]
            for path in paths {
                let reply = try await world.get(path, token: token)
                #expect(reply.status == 200, "\(path): \(reply.status) \(reply.text.prefix(300))")
            }
            // The planted numbers were computed with, not skipped: yesterday's steps are there, held at a bound.
            let withValues = try await world.get("/api/2/attributes/with-values/?attributes=steps&days=3", token: token)
            let steps = try withValues.results.first { $0["name"] as? String == "steps" }
            let values = try #require(steps?["values"] as? [[String: Any]], "\(withValues.text.prefix(500))")
            #expect(values.contains { ($0["value"] as? Int ?? 0) > 1_000_000 }, "\(values)")
            let alive = try await world.get("/v1.1/users/self", token: token)
            #expect(alive.status == 200, "the server still answers: \(alive.text)")
        }
    }

    /// Writes one reading around every rule, as only a program other than hmon (or an older one) could: the
    /// JSON and the four number columns hmon keeps beside it.
    static func plant(in world: ServerWorld, device: Device, ts: Int64, json: String) async throws {
        let mid = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let data = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let numbers = [Field.weight, Field.activeEnergy, Field.calories, Field.basalEnergy].map { data[$0] as? Double }
        if let url = world.postgresURL {
            let sqlNumbers = numbers.map { $0.map { "\($0)" } ?? "NULL" }.joined(separator: ", ")
            _ = try await TestPostgres.query(url, """
                INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, data, weight, active_energy, calories, basal_energy) \
                VALUES (hmon_binary_id('\(mid)'), hmon_binary_id('\(device.id)'), hmon_binary_id('\(device.dtid)'), \
                        hmon_binary_id('\(device.uid)'), \(ts), \(ts), '\(json)', \(sqlNumbers))
                """)
        } else {
            // Ids as the store keeps them (`BinaryID`'s bytes).
            let keys = [mid, device.id, device.dtid, device.uid]
            try await world.sqlite.writer.write { db in
                let ids: [(any DatabaseValueConvertible)?] = keys.map { Data(BinaryID.encode($0)) }
                try db.execute(sql: """
                    INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data, weight, active_energy, calories, basal_energy)
                    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
                    """, arguments: StatementArguments(ids + [ts, ts, json] + numbers))
            }
        }
    }
}
