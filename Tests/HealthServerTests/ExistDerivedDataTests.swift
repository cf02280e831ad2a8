import Foundation
import HealthCore
import HealthModel
import HealthServer
import Testing

/// Averages, correlations and insights over `/api/2/`: what `hmon insights` computes, in Exist's shapes.
@Suite struct ExistDerivedDataTests {
    /// 60 days before today: a weigh-in every day, 70 kg on Mondays and 72 kg on the other days; steps that
    /// jump about from day to day, and food eaten that follows them (1500 kcal + a tenth of the steps).
    static func seed(_ world: ServerWorld) async throws {
        let tracker = try await world.device(.activityTracker, named: "Watch", for: world.alice)
        let food = try await world.device(.calorieTracker, named: "Food log", for: world.alice)
        var readings: [NewMessage] = []
        for daysAgo in 1...60 {
            let day = world.today.adding(days: -daysAgo)
            let ts = day.start(in: world.calendar).addingTimeInterval(9 * 3600).millisecondsSince1970
            let steps = 5000 + Double((daysAgo * 37) % 60) * 100
            readings.append(NewMessage(sdid: world.aliceScale.id, ts: ts, data: ["weight": .number(day.weekdayIndex == 0 ? 70 : 72)]))
            readings.append(NewMessage(sdid: tracker.id, ts: ts, data: ["steps": .number(steps)]))
            readings.append(NewMessage(sdid: food.id, ts: ts, data: ["calories": .number(1500 + steps / 10)]))
        }
        try await world.store.postBatch(readings, userID: world.alice.id, now: world.clock.now)
    }

    static func report(_ world: ServerWorld) async throws -> InsightsReport {
        try await LocalHealthService(store: world.store, userID: world.alice.id).insightsReport(now: world.clock.now, calendar: world.calendar)
    }

    @Test func averagesAreTheWeekdayMediansOfTheLast60Days() async throws {
        try await ServerWorld.run { world in
            try await Self.seed(world)
            let reply = try await world.get("/api/2/averages/?attributes=weight", token: try await world.rawToken())
            #expect(reply.status == 200)
            let weight = try #require(try reply.results.first)
            #expect(try reply.results.count == 1)
            // By hand: 60 days, 8 or 9 Mondays at 70 and the rest at 72: the median of all is 72, of Mondays 70.
            #expect(weight["attribute"] as? String == "weight")
            #expect(weight["overall"] as? Double == 72)
            #expect(weight["monday"] as? Double == 70)
            #expect(weight["tuesday"] as? Double == 72 && weight["sunday"] as? Double == 72)
            #expect(weight["date"] as? String == world.today.adding(days: -1).description, "through yesterday, the last whole day")

            // Energy in kJ, as Exist's template has it: the same report `hmon insights --json` prints.
            let energy = try await world.get("/api/2/averages/?attributes=energy", token: try await world.rawToken())
            let expected = try #require(try await Self.report(world).averages.first { $0.attribute == .energy })
            #expect(try energy.results.first?["overall"] as? Double == expected.overall * EnergyUnit.kJPerKcal)
            let later = try await world.get("/api/2/averages/?date_min=\(world.today)", token: try await world.rawToken())
            #expect(try later.results.isEmpty, "hmon keeps only the latest averages, dated yesterday")
        }
    }

    /// The report is kept between requests, but never past a change to the store.
    @Test func averagesFollowANewReadingAtOnce() async throws {
        try await ServerWorld.run { world in
            let token = try await world.rawToken()
            for daysAgo in 1...3 { try await world.post(["weight": .number(70)], on: world.aliceScale, daysAgo: daysAgo) }
            let before = try await world.get("/api/2/averages/?attributes=weight", token: token)
            #expect(try before.results.first?["overall"] as? Double == 70)
            #expect(try await world.get("/api/2/averages/?attributes=weight", token: token).results.first?["overall"] as? Double == 70)
            // Four older days at 90: the median of 70, 70, 70, 90, 90, 90, 90 is 90.
            for daysAgo in 4...7 { try await world.post(["weight": .number(90)], on: world.aliceScale, daysAgo: daysAgo) }
            let after = try await world.get("/api/2/averages/?attributes=weight", token: token)
            #expect(try after.results.first?["overall"] as? Double == 90)
        }
    }

    @Test func correlationsAndTheirComboAreTheInsightsOwn() async throws {
        try await ServerWorld.run { world in
            try await Self.seed(world)
            let token = try await world.rawToken()
            let report = try await Self.report(world)
            let all = try await world.get("/api/2/correlations/?limit=100", token: token)
            #expect(all.status == 200)
            #expect(try all.json["count"] as? Int == report.correlations.count)
            let pair = try #require(try all.results.first { c in
                Set([c["attribute"] as? String, c["attribute2"] as? String]) == ["energy", "steps"] && c["offset"] as? Int == 0
            })
            // Food eaten is a rising function of the same day's steps: Spearman's rho is exactly 1.
            #expect(abs((pair["value"] as? Double ?? 0) - 1) < 1e-9)
            #expect(pair["percentage"] as? Double == abs(pair["value"] as? Double ?? 0) * 100)
            #expect(pair["stars"] as? Int == 5)
            for key in ["date", "period", "p", "second_person", "second_person_elements", "strength_description",
                        "stars_description", "description", "occurrence", "rating", "attribute_category"] {
                #expect(pair[key] != nil, "\(key)")
            }
            #expect((pair["second_person_elements"] as? [String])?.count == 3)

            for (a, b) in [("energy", "steps"), ("steps", "energy")] {
                let combo = try await world.get("/api/2/correlations/combo/?attribute=\(a)&attribute2=\(b)", token: token)
                #expect(combo.status == 200)
                #expect(abs((try combo.json["value"] as? Double ?? 0) - 1) < 1e-9)
            }
            let none = try await world.get("/api/2/correlations/combo/?attribute=heartrate_resting&attribute2=steps", token: token)
            #expect(none.status == 404)
            #expect(none.errorMessage != nil)

            let confident = try await world.get("/api/2/correlations/?confident=1&limit=100", token: token)
            #expect(try confident.results.allSatisfy { $0["stars"] as? Int == 5 })
            let ofSteps = try await world.get("/api/2/correlations/?attribute=steps&limit=100", token: token)
            #expect(try ofSteps.results.allSatisfy { $0["attribute"] as? String == "steps" || $0["attribute2"] as? String == "steps" })
            #expect(try !ofSteps.results.isEmpty)
            // A token that reads only food sees no pair with activity in it.
            let foodOnly = try await world.get("/api/2/correlations/?limit=100", token: try await world.scopedToken("food_read"))
            #expect(try foodOnly.results.allSatisfy { $0["attribute"] as? String != "steps" && $0["attribute2"] as? String != "steps" })
        }
    }

    @Test func insightsAreTheFindingsFilteredByDateAndPriority() async throws {
        try await ServerWorld.run { world in
            try await Self.seed(world)
            let token = try await world.rawToken()
            let report = try await Self.report(world)
            let all = try await world.get("/api/2/insights/?limit=100", token: token)
            #expect(all.status == 200)
            #expect(try all.json["count"] as? Int == report.findings.count)
            let first = try #require(try all.results.first)
            let type = try #require(first["type"] as? [String: Any])
            #expect(type["name"] is String && type["period"] is Int && type["priority"] is Int)
            // Exist's docs nest the attribute as an object with its group (insights.md's example).
            let attribute = try #require(type["attribute"] as? [String: Any])
            #expect(Set(attribute.keys) == ["name", "label", "group", "priority", "value_type", "value_type_description"])
            let group = try #require(attribute["group"] as? [String: Any])
            #expect(group["name"] is String && group["label"] is String && group["priority"] is Int)
            #expect(first["created"] is String && first["target_date"] is String && first["html"] is String && first["text"] is String)
            for priority in 1...4 {
                let some = try await world.get("/api/2/insights/?priority=\(priority)&limit=100", token: token)
                #expect(try some.results.allSatisfy { ($0["type"] as? [String: Any])?["priority"] as? Int == priority })
                #expect(try some.results.count == report.findings.filter { $0.period.rawValue == priority }.count)
            }
            let future = try await world.get("/api/2/insights/?date_min=\(world.today.adding(days: 1))", token: token)
            #expect(try future.results.isEmpty)
            #expect(try await world.get("/api/2/insights/?priority=9", token: token).status == 400)
        }
    }
}
