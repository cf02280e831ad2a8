import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing
import SQLiteStorage

/// `/api/2/` as a client written for Exist sees it (`exist-api.md`): the shapes, paging, scopes, and writes
/// that become readings.
@Suite struct ExistAPITests {
    // MARK: Shapes

    @Test(arguments: StoreEngine.available) func theProfileTestsATokenAndGivesExistsFields(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let reply = try await world.get("/api/2/accounts/profile/", token: try await world.rawToken())
            #expect(reply.status == 200)
            let profile = try reply.json
            #expect(profile["username"] as? String == "alice")
            #expect(profile["first_name"] as? String == "Alice")
            #expect(profile["last_name"] as? String == "Example")
            #expect(profile["timezone"] as? String == TimeZone.current.identifier)
            #expect(profile["imperial_weight"] as? Bool == false)
            #expect(profile["imperial_units"] is Bool && profile["imperial_energy"] is Bool)
            #expect(profile["local_time"] is String)

            #expect(try await world.get("/api/2/accounts/profile/").status == 401)
            #expect(try await world.get("/api/2/accounts/profile/", token: "not-a-token").status == 401)
            let refused = try await world.get("/api/2/accounts/profile/")
            #expect(refused.errorMessage?.isEmpty == false, "errors are JSON with a message: \(refused.text)")
        }
    }

    @Test(arguments: StoreEngine.available) func attributesListInPagesWithTheContractsKeys(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken()
            let all = try await world.get("/api/2/attributes/", token: token)
            #expect(all.status == 200)
            let body = try all.json
            #expect(body["count"] as? Int == InsightAttribute.allCases.count)
            #expect(body["next"] is NSNull && body["previous"] is NSNull)
            let weight = try #require(try all.results.first { $0["name"] as? String == "weight" })
            #expect(weight["label"] as? String == "Weight")
            #expect(weight["template"] as? String == "weight")
            #expect(weight["value_type"] as? Int == 1)
            #expect(weight["value_type_description"] as? String == "Decimal")
            #expect(weight["manual"] as? Bool == false && weight["active"] as? Bool == true)
            #expect(weight["priority"] is Int)
            let group = try #require(weight["group"] as? [String: Any])
            #expect(group["name"] as? String == "health" && group["label"] is String && group["priority"] is Int)
            let service = try #require(weight["service"] as? [String: Any])
            #expect(service["name"] as? String == "hmon" && service["label"] is String)
            let bodyFat = try #require(try all.results.first { $0["name"] as? String == "body_fat" })
            #expect(bodyFat["value_type"] as? Int == 5, "a percentage 0–1")
            let net = try #require(try all.results.first { $0["name"] as? String == "net_energy" })
            #expect(net["template"] is NSNull, "hmon's own attributes are custom ones in Exist's terms")

            // Pages of 5: the second links both ways, the last has no next.
            let second = try await world.get("/api/2/attributes/?limit=5&page=2", token: token)
            #expect(try second.results.count == 5)
            let next = try #require(try second.json["next"] as? String)
            let previous = try #require(try second.json["previous"] as? String)
            #expect(next.hasPrefix(world.url.absoluteString + "/api/2/attributes/?") && next.contains("page=3") && next.contains("limit=5"))
            #expect(previous.contains("page=1"))
            let pages = (InsightAttribute.allCases.count + 4) / 5
            let last = try await world.get("/api/2/attributes/?limit=5&page=\(pages)", token: token)
            #expect(try last.results.count == InsightAttribute.allCases.count - 5 * (pages - 1))
            #expect(try last.json["next"] is NSNull)

            // Filters.
            let food = try await world.get("/api/2/attributes/?groups=food", token: token)
            #expect(Set(try food.results.compactMap { $0["name"] as? String }) == ["energy", "net_energy"])
            let two = try await world.get("/api/2/attributes/?attributes=weight,steps", token: token)
            #expect(try two.results.compactMap { $0["name"] as? String } == ["weight", "steps"])
            #expect(try await world.get("/api/2/attributes/?manual=1", token: token).results.isEmpty, "hmon has no manual attributes")
            let tooMany = try await world.get("/api/2/attributes/?limit=101", token: token)
            #expect(tooMany.status == 400)
            #expect(tooMany.errorMessage != nil)
        }
    }

    @Test(arguments: StoreEngine.available) func valuesComeNewestFirstInPagesUpToDateMax(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            // Weigh-ins 10, 5 and 4 days ago (two on the day 5 days ago: 80 and 81 average 80.5).
            try await world.post(["weight": .number(80)], on: world.aliceScale, daysAgo: 10)
            try await world.post(["weight": .number(80)], on: world.aliceScale, daysAgo: 5, hour: 7)
            try await world.post(["weight": .number(81)], on: world.aliceScale, daysAgo: 5, hour: 20)
            try await world.post(["weight": .number(79.2)], on: world.aliceScale, daysAgo: 4)
            let token = try await world.rawToken()
            let today = world.today

            let first = try await world.get("/api/2/attributes/values/?attribute=weight&limit=3", token: token)
            #expect(first.status == 200)
            #expect(try first.json["count"] as? Int == 11, "one value a day from the first reading (10 days ago) to today")
            let values = try first.results
            #expect(values.map { $0["date"] as? String } == (0..<3).map { today.adding(days: -$0).description })
            // Carried forward: the last weigh-in, 79.2, on the days after it.
            #expect(values.map { $0["value"] as? Double } == [79.2, 79.2, 79.2])

            let dated = try await world.get("/api/2/attributes/values/?attribute=weight&limit=2&date_max=\(today.adding(days: -5))",
                                            token: token)
            #expect(try dated.results.map { $0["value"] as? Double } == [80.5, 80])
            #expect(try dated.results.first?["date"] as? String == today.adding(days: -5).description)

            let lastPage = try await world.get("/api/2/attributes/values/?attribute=weight&limit=5&page=3", token: token)
            #expect(try lastPage.results.map { $0["date"] as? String } == [today.adding(days: -10).description])
            #expect(try lastPage.json["next"] is NSNull)

            // A day without a value is null: steps were never recorded.
            let steps = try await world.get("/api/2/attributes/values/?attribute=steps&limit=1", token: token)
            #expect(try steps.results.first?["value"] is NSNull)

            let withValues = try await world.get("/api/2/attributes/with-values/?attributes=weight&days=6", token: token)
            let weight = try #require(try withValues.results.first)
            let shown = try #require(weight["values"] as? [[String: Any]])
            #expect(shown.count == 6)
            #expect(shown.last?["value"] as? Double == 80.5 && shown.last?["date"] as? String == today.adding(days: -5).description)
            #expect(try await world.get("/api/2/attributes/with-values/?days=32", token: token).status == 400)
            #expect(try await world.get("/api/2/attributes/values/?attribute=nonsense", token: token).status == 404)
            #expect(try await world.get("/api/2/attributes/values/?attribute=weight&date_max=yesterday", token: token).status == 400)
            // Dates a month's window or the weight carry would take out of the calendar's years are refused, not served.
            for date in ["0001-01-01", "1970-01-15", "9999-12-31", "2026-02-30"] {
                let far = try await world.get("/api/2/attributes/with-values/?days=31&date_max=\(date)", token: token)
                #expect(far.status == 400, "\(date)")
                #expect(far.errorMessage != nil)
            }
            #expect(try await world.get("/api/2/attributes/with-values/?days=31&date_max=1971-01-01", token: token).status == 200)
        }
    }

    // MARK: Scopes

    @Test(arguments: StoreEngine.available) func aFoodReadTokenReadsFoodButNotWeight(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.scopedToken("food_read")
            let weight = try await world.get("/api/2/attributes/values/?attribute=weight", token: token)
            #expect(weight.status == 403)
            #expect(try await world.get("/api/2/attributes/values/?attribute=energy", token: token).status == 200)
            let listed = try await world.get("/api/2/attributes/", token: token)
            #expect(Set(try listed.results.compactMap { ($0["group"] as? [String: Any])?["name"] as? String }) == ["food"])
            // Exist's scopes do not open the SAMI routes, which need hmon's own `read`.
            #expect(try await world.get("/v1.1/users/self", token: token).status == 403)
            // Reading is not writing.
            let acquire = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"template":"energy"}]"#)
            #expect(acquire.status == 403)
        }
    }

    @Test(arguments: StoreEngine.available) func aTokenWritesOnlyTheGroupsItsScopesName(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.scopedToken("health_read,health_write")
            let reply = try await world.post("/api/2/attributes/acquire/", token: token,
                                             json: #"[{"template":"weight"},{"template":"energy"}]"#)
            #expect(reply.status == 202)
            // Exist's docs: each success is {"name","active"}.
            #expect(reply.success.map { $0["name"] as? String } == ["weight"])
            #expect(reply.success.first?["active"] as? Bool == true)
            #expect(reply.failed.map { $0["error_code"] as? String } == ["unauthorised"])
            #expect(reply.failed.first?["template"] as? String == "energy")
        }
    }

    @Test(arguments: StoreEngine.available) func aReadOnlyPersonalTokenReadsAndIsRefusedEveryWrite(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let (_, token) = try await world.store.createPersonalToken(userID: world.alice.id, label: "phone")
            #expect(try await world.getWithPersonal("/api/2/attributes/", token: token).status == 200)
            #expect(try await world.getWithPersonal("/api/2/attributes/values/?attribute=weight", token: token).status == 200)
            for route in ["acquire", "release", "update", "increment"] {
                let reply = try await world.post("/api/2/attributes/\(route)/", json: #"[{"name":"weight","date":"2020-01-01","value":70}]"#,
                                                 headers: ["Authorization": "Token \(token)"])
                #expect(reply.status == 403, "\(route): \(reply.text)")
            }
            // A personal token is not a bearer token, and a bearer token is not a personal one.
            #expect(try await world.get("/api/2/attributes/", token: token).status == 401)
            #expect(try await world.getWithPersonal("/api/2/attributes/", token: try await world.rawToken()).status == 401)
            #expect(try await world.getWithPersonal("/v1.1/users/self", token: token).status == 403)
        }
    }

    @Test func the429OfTheRateLimitCoversTheseRoutesAndSaysWhenToComeBack() async throws {
        try await ServerWorld.run(rateLimit: RateLimit(perMinute: 2, perDay: 100)) { world in
            let token = try await world.rawToken()
            #expect(try await world.get("/api/2/attributes/", token: token).status == 200)
            #expect(try await world.get("/api/2/attributes/", token: token).status == 200)
            let refused = try await world.get("/api/2/attributes/", token: token)
            #expect(refused.status == 429)
            let wait = try #require(refused.header("Retry-After").flatMap(Int.init))
            #expect((1...60).contains(wait))
            #expect(refused.errorMessage != nil)
        }
    }

    // MARK: Writing

    @Test(arguments: StoreEngine.available) func writingNeedsAcquiringFirstAndThenBecomesAReading(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken()
            let day = world.today.adding(days: -2).description
            let write = #"[{"name":"weight","date":"\#(day)","value":71.3}]"#
            let before = try await world.post("/api/2/attributes/update/", token: token, json: write)
            #expect(before.status == 202)
            #expect(before.failed.first?["error_code"] as? String == "unauthorised")
            #expect(before.success.isEmpty)

            let acquired = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"template":"weight"}]"#)
            #expect(acquired.status == 200)
            let owned = try await world.get("/api/2/attributes/owned/", token: token)
            #expect(try owned.results.map { $0["name"] as? String } == ["weight"])

            let after = try await world.post("/api/2/attributes/update/", token: token, json: write)
            #expect(after.status == 200)
            #expect(after.success.first?["value"] as? Double == 71.3)
            #expect(after.failed.isEmpty)

            // A reading of a device named after the client's service, seen by the SAMI routes too.
            let devices = try await world.store.devices(userID: world.alice.id)
            let service = try #require(devices.first { $0.name == "hmon (Withings Device)" })
            let messages = try await world.get("/v1.1/messages?sdid=\(service.id)&startDate=0&endDate=\(Int64.max / 2)", token: token)
            #expect(messages.status == 200)
            let data = try #require((try messages.json["data"] as? [[String: Any]])?.first?["data"] as? [String: Any])
            #expect(data["weight"] as? Double == 71.3)

            let value = try await world.get("/api/2/attributes/values/?attribute=weight&limit=1&date_max=\(day)", token: token)
            #expect(try value.results.first?["value"] as? Double == 71.3)
            // Released, it may not be written again until acquired.
            let released = try await world.post("/api/2/attributes/release/", token: token, json: #"[{"name":"weight"}]"#)
            #expect(released.status == 200)
            #expect(try await world.post("/api/2/attributes/update/", token: token, json: write).failed.first?["error_code"] as? String == "unauthorised")
        }
    }

    /// The dashboard on the same file polls `changeToken()` every second and reloads when it moves.
    @Test func aWriteChangesWhatTheDashboardWatchesAndItsWeightSeries() async throws {
        try await ServerWorld.run { world in
            let dashboard = try LocalStore(url: URL(fileURLWithPath: world.sqlite.path), passwordHasher: .fastForTests)
            let token = try await world.rawToken()
            _ = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"template":"weight"}]"#)
            let before = try dashboard.changeToken()
            let reply = try await world.post("/api/2/attributes/update/", token: token,
                                             json: #"[{"name":"weight","date":"\#(world.today)","value":68.4}]"#)
            #expect(reply.status == 200)
            #expect(try dashboard.changeToken() != before)
            let series = try await LocalHealthService(store: dashboard, userID: world.alice.id)
                .weightSeries(days: world.today...world.today, calendar: world.calendar)
            #expect(series.points.last?.kg == 68.4)
        }
    }

    @Test(arguments: StoreEngine.available) func updateReplacesTheDaysValueAndIncrementAddsToIt(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken()
            _ = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"template":"weight"},{"template":"energy"}]"#)
            let day = world.today.adding(days: -1).description
            _ = try await world.post("/api/2/attributes/update/", token: token, json: #"[{"name":"weight","date":"\#(day)","value":70}]"#)
            // Read once in between, so the day's sums are kept: the replacement must not be hidden by them
            // (one reading out, one in: the same count, and maybe the same rowid).
            let kept = try await world.get("/api/2/attributes/values/?attribute=weight&limit=1&date_max=\(day)", token: token)
            #expect(try kept.results.first?["value"] as? Double == 70)
            _ = try await world.post("/api/2/attributes/update/", token: token, json: #"[{"name":"weight","date":"\#(day)","value":72}]"#)
            let weight = try await world.get("/api/2/attributes/values/?attribute=weight&limit=1&date_max=\(day)", token: token)
            #expect(try weight.results.first?["value"] as? Double == 72, "replaced, not averaged with 70 nor added to it")

            // Energy eaten in kJ: 1000 + 500 = 1500 kJ, kept as 1500 / 4.184 = 358.5 kcal.
            let first = try await world.post("/api/2/attributes/increment/", token: token,
                                              json: #"[{"name":"energy","date":"\#(day)","value":1000}]"#)
            #expect(first.status == 200)
            #expect(abs((first.success.first?["current"] as? Double ?? 0) - 1000) < 1e-6)
            let second = try await world.post("/api/2/attributes/increment/", token: token,
                                               json: #"[{"name":"energy","date":"\#(day)","value":500}]"#)
            #expect(abs((second.success.first?["current"] as? Double ?? 0) - 1500) < 1e-6)
            let energy = try await world.get("/api/2/attributes/values/?attribute=energy&limit=1&date_max=\(day)", token: token)
            #expect(abs((try energy.results.first?["value"] as? Double ?? 0) - 1500) < 1e-6)
            let totals = try await LocalHealthService(store: world.store, userID: world.alice.id)
                .dailyTotals(days: world.today.adding(days: -1)...world.today.adding(days: -1), calendar: world.calendar)
            #expect(abs((totals[world.today.adding(days: -1)]?[.dietaryEnergy].sum ?? 0) - 1500 / 4.184) < 1e-6)

            // Increment without a date adds to today.
            let today = try await world.post("/api/2/attributes/increment/", token: token, json: #"[{"name":"energy","value":100}]"#)
            #expect(today.status == 200)
            #expect(abs((today.success.first?["current"] as? Double ?? 0) - 100) < 1e-6)
        }
    }

    @Test(arguments: StoreEngine.available) func aMixedBatchAnswers202NamingEachFailure(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken()
            _ = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"template":"weight"}]"#)
            let day = world.today.adding(days: -1).description
            let reply = try await world.post("/api/2/attributes/update/", token: token, json: """
                [{"name":"weight","date":"\(day)","value":70.5},
                 {"name":"weight","date":"\(day)","value":900},
                 {"name":"weight","date":"\(day)"},
                 {"name":"weight","date":"\(day)","value":"heavy"},
                 {"name":"unicorns","date":"\(day)","value":3},
                 {"name":"weight","date":"2999-01-01","value":70},
                 {"name":"weight","date":"0000-01-01","value":70},
                 {"name":["weight"],"date":"\(day)","value":70},
                 {"name":"weight","date":"\(day)","value":1e308}]
                """)
            #expect(reply.status == 202)
            #expect(reply.success.count == 1)
            #expect(reply.success.first?["value"] as? Double == 70.5)
            #expect(reply.failed.map { $0["error_code"] as? String }
                    == ["validation", "missing_field", "validation", "not_found", "validation", "validation", "validation", "validation"])
            #expect(reply.failed.allSatisfy { ($0["error"] as? String ?? "").count < 200 }, "short messages, no 300-digit numbers")
            let heavy = try #require(reply.failed.first)
            #expect(heavy["value"] as? Int == 900 && heavy["date"] as? String == day, "the failed object comes back as sent")
            #expect((heavy["error"] as? String)?.contains("1–650 kg") == true)
            // Nothing of the refused objects was written.
            let value = try await world.get("/api/2/attributes/values/?attribute=weight&limit=1&date_max=\(day)", token: token)
            #expect(try value.results.first?["value"] as? Double == 70.5)
        }
    }

    @Test(arguments: StoreEngine.available) func aWriteTakesAtMost35Objects(_ engine: StoreEngine) async throws {
        try await ServerWorld.run(engine: engine) { world in
            let token = try await world.rawToken()
            _ = try await world.post("/api/2/attributes/acquire/", token: token, json: #"[{"template":"steps"}]"#)
            func batch(_ n: Int) -> String {
                "[" + (1...n).map { #"{"name":"steps","date":"\#(world.today.adding(days: -$0))","value":\#(1000 + $0)}"# }
                    .joined(separator: ",") + "]"
            }
            let tooMany = try await world.post("/api/2/attributes/update/", token: token, json: batch(36))
            #expect(tooMany.status == 400)
            #expect(tooMany.errorMessage != nil)
            let values = try await world.get("/api/2/attributes/values/?attribute=steps&limit=40", token: token)
            #expect(try values.results.isEmpty, "a refused batch writes nothing")
            let allowed = try await world.post("/api/2/attributes/update/", token: token, json: batch(35))
            #expect(allowed.status == 200)
            #expect(allowed.success.count == 35)
            let written = try await world.get("/api/2/attributes/values/?attribute=steps&limit=1&date_max=\(world.today.adding(days: -35))",
                                              token: token)
            #expect(try written.results.first?["value"] as? Int == 1035)
            let notAList = try await world.post("/api/2/attributes/update/", token: token, json: #"{"name":"steps"}"#)
            #expect(notAList.status == 400)
        }
    }
}
