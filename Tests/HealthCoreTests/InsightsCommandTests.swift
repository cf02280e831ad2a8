import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// `hmon insights`, run as the built binary on a real store: the three parts as text, Exist-shaped JSON,
/// and a usage mistake.
@Suite struct InsightsCommandTests {
    /// 200 days up to now of a scale and a food log in which what was eaten sets the next day's weight
    /// change (7,700 kcal per kg around 2,400 kcal), plus noise.
    static func plantedStore(_ home: CommandLineTests.Home) async throws -> [Double] {
        let store = try home.store()
        let user = try await store.createUser(NewAccount(name: "alice", password: "secret-pw"))
        let scale = try await store.addDevice(name: "Scale", typeID: BuiltInDeviceType.withings.deviceType.id, userID: user.id)
        let food = try await store.addDevice(name: "Food", typeID: BuiltInDeviceType.calorieTracker.deviceType.id, userID: user.id)
        var random = SeededRandom(seed: 7)
        var messages: [NewMessage] = []
        var eaten: [Double] = []
        var weight = 82.0
        // Noon UTC: the same day in any zone the machine might be in, within ±11 hours.
        let noon = (Int64(Date().timeIntervalSince1970) / 86_400) * 86_400_000 + 43_200_000
        for back in stride(from: 199, through: 1, by: -1) {
            let ts = noon - Int64(back) * 86_400_000
            if let before = eaten.last { weight += (before - 2_400) / 7_700 + 0.03 * random.normal() }
            let kcal = (2_400 + 300 * random.normal()).rounded()
            eaten.append(kcal)
            messages.append(NewMessage(sdid: scale.id, ts: ts - 3_600_000, data: [Field.weight: .number(weight)]))
            messages.append(NewMessage(sdid: food.id, ts: ts, data: [Field.calories: .number(kcal)]))
        }
        try await store.postBatch(messages, userID: user.id)
        return eaten
    }

    @Test func textShowsFindingsMediansAndThePlantedCorrelation() async throws {
        let home = try CommandLineTests.Home()
        _ = try await Self.plantedStore(home)
        let run = try await home.hmon(["insights"], environment: ["TZ": "UTC"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Findings\n"))
        #expect(run.stdout.contains("Logged food 199 days in a row"), "\(run.stdout)")
        #expect(run.stdout.contains("Medians of the last 60 days"))
        #expect(run.stdout.contains("On days after you eat more, your weight goes up more ("), "\(run.stdout)")
        #expect(run.stderr.isEmpty)
    }

    @Test func jsonFollowsExistsShapesInExistsUnits() async throws {
        let home = try CommandLineTests.Home()
        let eaten = try await Self.plantedStore(home)
        let run = try await home.hmon(["insights", "--json"], environment: ["TZ": "UTC"])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(document.keys) == ["averages", "correlations", "expected_correlations", "insights"])

        let averages = try #require(document["averages"] as? [[String: Any]])
        let energy = try #require(averages.first { $0["attribute"] as? String == "energy" })
        #expect(Set(energy.keys) == ["attribute", "date", "overall", "monday", "tuesday", "wednesday", "thursday", "friday",
                                     "saturday", "sunday"])
        // Exist's `energy` is in kJ: the median of the last 60 days' kcal × 4.184, to six decimals as Exist shows it.
        let last60 = eaten.suffix(60).sorted()
        let medianKcal = (last60[29] + last60[30]) / 2
        #expect(abs((energy["overall"] as? Double ?? 0) - medianKcal * 4.184) <= 5e-7)

        let correlations = try #require(document["correlations"] as? [[String: Any]])
        let planted = try #require(correlations.first {
            $0["attribute"] as? String == "weight" && $0["attribute2"] as? String == "energy" && $0["offset"] as? Int == -1
        }, "\(correlations)")
        for key in ["date", "period", "offset", "attribute", "attribute2", "value", "p", "percentage", "stars", "second_person",
                    "second_person_elements", "strength_description", "stars_description", "description", "occurrence", "rating"] {
            #expect(planted[key] != nil, "the correlation object has \(key)")
        }
        let value = try #require(planted["value"] as? Double)
        #expect(value > 0.3)
        #expect(abs((planted["percentage"] as? Double ?? 0) - value * 100) < 1e-9)
        #expect((planted["period"] as? Int ?? 0) >= 190)
        #expect((planted["second_person_elements"] as? [String])?.count == 3)

        let insights = try #require(document["insights"] as? [[String: Any]])
        let first = try #require(insights.first)
        #expect(Set(first.keys) == ["created", "target_date", "type", "html", "text"])
        let type = try #require(first["type"] as? [String: Any])
        #expect(Set(type.keys) == ["name", "period", "priority", "attribute"])
        #expect((type["attribute"] as? [String: Any])?["name"] is String, "Exist nests the attribute as an object")
        #expect((1...4).contains(type["priority"] as? Int ?? 0))
    }

    @Test func theDemoStoreHasFindingsAndCorrelations() async throws {
        let home = try CommandLineTests.Home()
        let run = try await home.hmon(["insights", "--demo"], withDB: false)
        #expect(run.status == 0, "\(run.stderr)")
        // The demo logs food every day; whether today's first meal is in yet depends on the hour.
        #expect(run.stdout.contains(/Logged food 1(79|80) days in a row/), "\(run.stdout)")
        #expect(run.stdout.contains("★"), "\(run.stdout)")
        let both = try await home.hmon(["insights", "--demo"])
        #expect(both.status == 2 && both.stderr.contains("leave out --db"))
    }

    @Test func daysOutsideItsRangeIsAUsageMistake() async throws {
        let home = try CommandLineTests.Home()
        let run = try await home.hmon(["insights", "--days", "1"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("hmon: --days must be 2–3650"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
