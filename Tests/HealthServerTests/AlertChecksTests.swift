import Foundation
import HealthAlerts
import HealthConnectors
import HealthModel
import Testing

/// The alert rules' conditions against hand-worked cases (docs/methods.md, "Alerts").
@Suite struct AlertChecksTests {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
    static let today = Day(year: 2026, month: 11, day: 29)

    /// One RMSSD at noon of each day offset from today: 40 and 60 ms by turns, `low` ms on the days in `lowDays`.
    static func measurements(from first: Int, lowDays: Set<Int>, low: Double = 10) -> [(date: Date, rmssdMs: Double)] {
        (first...0).map { offset in
            let noon = today.adding(days: offset).start(in: calendar).addingTimeInterval(12 * 3600)
            return (noon, lowDays.contains(offset) ? low : offset % 2 == 0 ? 40 : 60)
        }
    }

    /// Hand-worked: 60 days at 40 and 60 ms by turns have ln mean (ln 40 + ln 60) / 2 = 3.891612 and SD
    /// 0.204443 (n − 1), so the normal range is e^(3.891612 ± 0.102222) = 44.23–54.26 ms. One day at 10 ms
    /// makes its week (3 × ln 40 + 3 × ln 60 + ln 10) / 7 = 3.664608 (39.0 ms), under the range; the week
    /// before it, seven days of 40 and 60 ms, is at least (4 × ln 40 + 3 × ln 60) / 7 = 3.862, inside it.
    @Test func oneLowDayFiresARuleOfOneDayButNotOfTwo() throws {
        let data = Self.measurements(from: -90, lowDays: [0])
        let finding = try #require(AlertChecks.hrvBelowNormal(days: 1, measurements: data, today: Self.today, calendar: Self.calendar))
        #expect(finding.title == "HRV below your normal range")
        #expect(finding.message.contains("RMSSD 39 ms against 44–54 ms"), "\(finding.message)")
        #expect(AlertChecks.hrvBelowNormal(days: 2, measurements: data, today: Self.today, calendar: Self.calendar) == nil)
    }

    /// Hand-worked: with 10 ms on the last two days, today's week is (2.5 + 2.5 normal days' logs + 2 × ln 10) / 7
    /// ≈ 3.44 and yesterday's 3.664608, both under 3.789390 (44.23 ms): two days, so a rule of two fires.
    @Test func twoLowDaysFireARuleOfTwo() throws {
        let data = Self.measurements(from: -90, lowDays: [0, -1])
        #expect(AlertChecks.hrvBelowNormal(days: 2, measurements: data, today: Self.today, calendar: Self.calendar) != nil)
        #expect(AlertChecks.hrvBelowNormal(days: 3, measurements: data, today: Self.today, calendar: Self.calendar) == nil)
    }

    @Test func aLowWeekLongAgoOrWithoutABaselineFiresNothing() {
        // The low days were last week: the newest measurement is 5 days old, past the two days a rule looks at.
        let stale = Self.measurements(from: -90, lowDays: [-5, -6]).filter { $0.date < Self.today.adding(days: -4).start(in: Self.calendar) }
        #expect(AlertChecks.hrvBelowNormal(days: 2, measurements: stale, today: Self.today, calendar: Self.calendar) == nil)
        // Under 14 measurements before the week: no normal range yet, so nothing is below it.
        let young = Self.measurements(from: -18, lowDays: [0, -1])
        #expect(AlertChecks.hrvBelowNormal(days: 2, measurements: young, today: Self.today, calendar: Self.calendar) == nil)
    }

    /// Hand-worked: 55 bpm for 40 days, then 62 on the last two. Today's 30 days before hold 29 × 55 and one 62:
    /// mean 55.23, and 62 > 60.23; yesterday's are all 55, and 62 > 60. A 60 yesterday is not above 55 + 5.
    @Test func restingHeartRateUpByMoreThanTheMarginOnEachDayFires() throws {
        var daily = Dictionary(uniqueKeysWithValues: (-40...(-2)).map { (Self.today.adding(days: $0), 55.0) })
        daily[Self.today.adding(days: -1)] = 62
        daily[Self.today] = 62
        let finding = try #require(AlertChecks.restingHeartRateAbove(bpm: 5, days: 2, daily: daily, today: Self.today))
        #expect(finding.message.contains("62 bpm against 55.2 bpm"), "\(finding.message)")
        daily[Self.today.adding(days: -1)] = 60
        #expect(AlertChecks.restingHeartRateAbove(bpm: 5, days: 2, daily: daily, today: Self.today) == nil)
        #expect(AlertChecks.restingHeartRateAbove(bpm: 5, days: 1, daily: daily, today: Self.today) != nil)
    }

    @Test func theWeightGoalIsReachedFromTheSideTheTrendStartedOnInThePersonsUnit() throws {
        let losing = [TrendDay(day: Self.today.adding(days: -30), weightKg: 80, trendKg: 80),
                      TrendDay(day: Self.today, weightKg: 74.6, trendKg: 74.9)]
        let inKg = try #require(AlertChecks.weightGoalReached(goalKg: 75, trend: losing, today: Self.today, text: QuantityText()))
        #expect(inKg.message.contains("74.9 kg, at your goal of 75.0 kg"), "\(inKg.message)")
        let inPounds = try #require(AlertChecks.weightGoalReached(goalKg: 75, trend: losing, today: Self.today,
                                                                  text: QuantityText(massUnit: .lb)))
        #expect(inPounds.message.contains("165.1 lb") && !inPounds.message.contains("kg"), "\(inPounds.message)")
        let notYet = [losing[0], TrendDay(day: Self.today, weightKg: 75, trendKg: 75.2)]
        #expect(AlertChecks.weightGoalReached(goalKg: 75, trend: notYet, today: Self.today, text: QuantityText()) == nil)
        let gaining = [TrendDay(day: Self.today.adding(days: -30), weightKg: 60, trendKg: 60),
                       TrendDay(day: Self.today, weightKg: 65.4, trendKg: 65)]
        #expect(AlertChecks.weightGoalReached(goalKg: 65, trend: gaining, today: Self.today, text: QuantityText()) != nil)
        #expect(AlertChecks.weightGoalReached(goalKg: nil, trend: gaining, today: Self.today, text: QuantityText()) == nil)
    }

    @Test func aLinkIsSilentOnlyPastItsHours() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let quiet = try #require(AlertChecks.linkSilent(hours: 36, links: [("a1b2", "health-connect", now.addingTimeInterval(-37 * 3600))], now: now))
        #expect(quiet.message.contains("health-connect link a1b2"))
        #expect(AlertChecks.linkSilent(hours: 36, links: [("a1b2", "health-connect", now.addingTimeInterval(-35 * 3600))], now: now) == nil)
    }
}

/// config.toml's `[[alerts]]`: what is read, and each mistake said with the rule and what to write.
@Suite struct AlertRulesFileTests {
    func parse(_ text: String, secret: String = "0123456789abcdef0123") throws(AlertRulesFile.Problem) -> [AlertRule] {
        try AlertRulesFile.parse(text, file: "config.toml") { _ in secret }
    }

    @Test func eachRuleIsReadWithItsFiguresAndDefaults() throws {
        let rules = try parse("""
            theme = "nord"
            [[alerts]]
            name = "hrv-low"
            when = "hrv-below-normal"
            ntfy = "https://ntfy.sh/ana-health-7f3c"
            priority = "high"
            [[alerts]]
            name = "scale_quiet"
            when = "link-silent"
            hours = 36
            user = "ana"
            webhook = "https://example.org/hook"
            secret-file = "/etc/hmon/hook.secret"
            [[alerts]]
            name = "rhr"
            when = "resting-heart-rate-high"
            bpm = 7
            ntfy = "http://ntfy.local/rhr"
            """)
        #expect(rules == [
            AlertRule(name: "hrv-low", condition: .hrvBelowNormal(days: 2), destination: .ntfy(URL(string: "https://ntfy.sh/ana-health-7f3c")!, priority: "high")),
            AlertRule(name: "scale_quiet", condition: .linkSilent(hours: 36, link: nil), user: "ana",
                      destination: .webhook(URL(string: "https://example.org/hook")!, secret: "0123456789abcdef0123")),
            AlertRule(name: "rhr", condition: .restingHeartRateAbove(bpm: 7, days: 2), destination: .ntfy(URL(string: "http://ntfy.local/rhr")!, priority: "default")),
        ])
        #expect(rules[0].destination.shownPlace == "ntfy at ntfy.sh", "the topic, as good as a password, is not shown")
        #expect(try parse("theme = \"nord\"").isEmpty)
    }

    @Test(arguments: [
        ("when = \"hrv-low\"\nntfy = \"https://ntfy.sh/t\"", "when = \"hrv-low\" is not a rule: use one of hrv-below-normal"),
        ("when = \"weight-goal\"", "says nowhere to send it: add ntfy ="),
        ("when = \"weight-goal\"\nntfy = \"https://ntfy.sh/t\"\nwebhook = \"https://x.org\"", "has both ntfy and webhook"),
        ("when = \"weight-goal\"\nntfy = \"https://ntfy.sh/t\"\npriority = \"max\"", "priority \"max\" is not one of ntfy's: min, low, default, high, urgent"),
        ("when = \"weight-goal\"\nntfy = \"ntfy.sh/t\"", "is not an http(s) topic URL"),
        ("when = \"link-silent\"\nhours = 0\nntfy = \"https://ntfy.sh/t\"", "hours must be a number from 1 to 8760, like hours = 36"),
        ("when = \"weight-goal\"\nntfy = \"https://ntfy.sh/t\"\ngoal = 70", "goal is not a setting of an alert"),
    ])
    func aMistakeNamesTheRuleAndWhatToWrite(body: String, said: String) {
        do {
            _ = try parse("[[alerts]]\nname = \"mine\"\n" + body)
            Issue.record("accepted: \(body)")
        } catch {
            #expect(error.description.hasPrefix("config.toml: [[alerts]] number 1 (\"mine\"): "), "\(error)")
            #expect(error.description.contains(said), "\(error)")
        }
    }

    @Test func namesAreUniqueAndSecretsLong() {
        let twice = "[[alerts]]\nname = \"a\"\nwhen = \"weight-goal\"\nntfy = \"https://ntfy.sh/t\"\n"
        #expect(throws: AlertRulesFile.Problem(description: "config.toml: two alerts are named \"a\": give each its own name")) {
            try parse(twice + twice)
        }
        let short = "[[alerts]]\nname = \"a\"\nwhen = \"weight-goal\"\nwebhook = \"https://x.org/h\"\nsecret-file = \"/s\"\n"
        #expect(throws: AlertRulesFile.Problem.self) { try parse(short, secret: "short") }
    }
}

/// What goes on the wire: ntfy's publish form, and a webhook's JSON signed as the push links are.
@Suite struct AlertDeliveryRequestTests {
    let finding = AlertFinding(title: "HRV below your normal range", message: "Your 7-day HRV…", tags: ["warning", "heart"])

    @Test func ntfyGetsTheMessageAsBodyAndItsTitlePriorityAndTagsAsHeaders() {
        let rule = AlertRule(name: "hrv", condition: .hrvBelowNormal(days: 2), destination: .ntfy(URL(string: "https://ntfy.sh/topic")!, priority: "high"))
        let request = AlertDelivery.request(rule: rule, finding: finding, user: "ana", now: Date())
        #expect(request.url.absoluteString == "https://ntfy.sh/topic")
        #expect(request.headers["Title"] == "HRV below your normal range")
        #expect(request.headers["Priority"] == "high")
        #expect(request.headers["Tags"] == "warning,heart")
        #expect(String(decoding: request.body, as: UTF8.self) == "Your 7-day HRV…")
    }

    @Test func aWebhookGetsJSONSignedWithItsSecret() throws {
        let secret = "0123456789abcdef0123456789abcdef"
        let rule = AlertRule(name: "hrv", condition: .hrvBelowNormal(days: 2), destination: .webhook(URL(string: "https://example.org/h")!, secret: secret))
        let request = AlertDelivery.request(rule: rule, finding: finding, user: "ana", now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(PushSignature.isValid(request.headers[PushSignature.header], body: request.body, secret: secret))
        #expect(!PushSignature.isValid(request.headers[PushSignature.header], body: request.body, secret: secret + "x"))
        let json = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(json["alert"] as? String == "hrv" && json["user"] as? String == "ana" && json["when"] as? String == "hrv-below-normal")
        #expect(json["at"] as? String == "2027-01-15T08:00:00Z" && json["test"] as? Bool == false)
    }
}
