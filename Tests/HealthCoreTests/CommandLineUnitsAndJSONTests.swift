import Foundation
import Testing
@testable import HealthModel

/// The command line reads a number typed with its unit wherever it asks for one, prints its figures with the
/// screens' thousands separators, and lists as JSON on request.
@Suite struct CommandLineUnitsAndJSONTests {
    typealias Home = CommandLineTests.Home

    /// Under lb, a weigh-in typed in kg is said in lb, the typed figure beside it, and the change in lb with the
    /// screens' one decimal: 77.1 kg = 169.98 lb, shown 170.0; from 170 lb (77.111 kg) it is −0.02 lb, shown ±0.0.
    @Test func aWeightTypedInKilogramsUnderPoundsIsSaidInPounds() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try await home.hmon(["profile", "set", "--unit", "lb"]).status == 0)
        let first = try await home.hmon(["add", "weight", "170", "--at", "2026-11-20 07:00"])
        #expect(first.stdout.hasPrefix("added 170.0 lb to Bathroom scale at 2026-11-20 07:00"), "\(first.stdout)")
        let typedKg = try await home.hmon(["add", "weight", "77.1kg", "--at", "2026-11-21 07:00"])
        #expect(typedKg.stdout == "added 170.0 lb (77.1 kg) to Bathroom scale at 2026-11-21 07:00 (±0.0 lb since 2026-11-20 07:00)\n",
                "\(typedKg.stdout)")
    }

    @Test func aWeightTypedInPoundsIsSavedInAKilogramsProfile() async throws {
        let home = try Home()
        try await home.userWithScale()
        let pounds = try await home.hmon(["add", "weight", "160", "lb", "--at", "2026-11-20 07:00"])
        #expect(pounds.status == 0, "\(pounds.stderr)")
        #expect(pounds.stdout.hasPrefix("added 72.6 kg (160.0 lb) to Bathroom scale"), "said in the profile's kg, the typed lb beside it: \(pounds.stdout)")
        let comma = try await home.hmon(["add", "weight", "72,4 kg", "--at", "2026-11-21 07:00"])
        #expect(comma.status == 0, "\(comma.stderr)")
        let listed = try await home.hmon(["reading", "list"]).stdout
        #expect(listed.contains("weight 72.6 kg") && listed.contains("weight 72.4 kg"), "\(listed)")
        let refused = try await home.hmon(["add", "weight", "160", "stone"])
        #expect(refused.status == 2 && refused.stderr.contains("not a plain number"), "\(refused.stderr)")
    }

    /// A person's own sleep need, set in hours, shown by `profile show` and used by `hmon sleep`; a need no one
    /// has is refused with the range, and nothing changes.
    @Test func theSleepNeedIsSetInHoursShownAndUsedBySleep() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try await home.hmon(["profile", "show"]).stdout.contains("Sleep need:  8 h a night, the default"))
        let set = try await home.hmon(["profile", "set", "--sleep-need-hours", "7.5"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("Sleep need:  7 h 30 a night"), "\(set.stdout)")
        let sleep = try await home.hmon(["sleep", "--json", "--days", "7"])
        #expect(sleep.status == 0, "\(sleep.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(sleep.stdout.utf8)) as? [String: Any])
        #expect(report["needMinutes"] as? Double == 450, "\(sleep.stdout.prefix(300))")
        #expect(try await home.hmon(["sleep"]).stdout.contains("need 7 h 30"))
        let refused = try await home.hmon(["profile", "set", "--sleep-need-hours", "20"])
        #expect(refused.status == 1 && refused.stderr.contains("sleep need 20 h is outside 3–14 h"), "\(refused.stderr)")
        #expect(try await home.hmon(["profile", "show"]).stdout.contains("Sleep need:  7 h 30 a night"))
    }

    @Test func readingListPrintsJSONInTheProfilesUnits() async throws {
        let home = try Home()
        try await home.userWithScale()
        try #require(await home.hmon(["profile", "set", "--unit", "lb"]).status == 0)
        try #require(await home.hmon(["add", "weight", "72.4", "kg", "--at", "2026-11-20 07:00"]).status == 0)
        let listed = try await home.hmon(["reading", "list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        let values = try #require(rows.first?["values"] as? [String: Any])
        #expect(values["weight"] as? Double == 159.6, "72.4 kg as the table shows it in lb: \(values)")
        #expect((rows.first?["units"] as? [String: String])?["weight"] == "lb")
        #expect(rows.first?["device"] as? String == "Bathroom scale")
        #expect(rows.first?["id"] is String && rows.first?["time"] is String)

        let devices = try await home.hmon(["device", "list", "--json"])
        #expect(devices.status == 0, "\(devices.stderr)")
        let listedDevices = try #require(try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [[String: Any]])
        #expect(listedDevices.map { $0["name"] as? String } == ["Bathroom scale"])
    }

    @Test func energyFiguresHaveThousandsSeparators() async throws {
        let home = try Home()
        try await home.userWithScale()
        try #require(await home.hmon(["device", "add", "--type", "Calorie Tracker", "--name", "Food log", "--user", "alice"]).status == 0)
        let added = try await home.hmon(["add", "energy", "--consumed", "8952", "--unit", "kJ", "--at", "2026-11-20 12:00"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.hasPrefix("added 8,952 kJ consumed to Food log"), "\(added.stdout)")
        #expect(added.stdout.contains("consumed 8,952 kJ"), "\(added.stdout)")
    }

    @Test func heightIsTypedAndShownInFeetAndInchesForAPoundsProfile() async throws {
        let home = try Home()
        try await home.userWithScale()
        let set = try await home.hmon(["profile", "set", "--unit", "lb", "--height", "5 ft 7 in"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout.contains("Height:      5 ft 7 in (170.2 cm)"), "\(set.stdout)")
        #expect(TypedQuantity.cm("5'7\"") == 67 * 2.54)
        #expect(TypedQuantity.cm("1.7 m") == 170)
    }
}
