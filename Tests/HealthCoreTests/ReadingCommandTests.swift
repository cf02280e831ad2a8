import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// `hmon reading list|edit|delete` and `hmon export`, run as the built binary against a store in a
/// temporary folder.
@Suite struct ReadingCommandTests {
    typealias Home = CommandLineTests.Home

    /// The id in the first column of the listing's row that holds `text`.
    static func id(in listing: String, of text: String) throws -> String {
        let line = try #require(listing.split(separator: "\n").first { $0.contains(text) }, "\(listing)")
        return String(line.split(separator: " ")[0])
    }

    @Test func aMistypedWeighInIsListedCorrectedAndDeleted() async throws {
        let home = try Home()
        try await home.userWithScale()
        try #require(await home.hmon(["add", "weight", "72.4", "--at", "2026-11-20 07:30"]).status == 0)
        try #require(await home.hmon(["add", "weight", "27", "--at", "2026-11-21 07:30"]).status == 0)

        let listed = try await home.hmon(["reading", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID "))
        #expect(lines[1].contains("2026-11-21 07:30  Bathroom scale  weight 27.0 kg"), "newest first: \(listed.stdout)")
        #expect(lines[2].contains("2026-11-20 07:30  Bathroom scale  weight 72.4 kg"))
        let typo = try Self.id(in: listed.stdout, of: "weight 27.0 kg")

        // Refused like a new reading, and nothing changes.
        let refused = try await home.hmon(["reading", "edit", typo, "--value", "720"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "hmon: weight 720 kg is outside 1–650 kg: check the number and its unit\n")
        #expect(try await home.hmon(["reading", "edit", typo]).status == 2, "nothing to change is a usage mistake")

        let edited = try await home.hmon(["reading", "edit", typo, "--value", "72.7"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout == "changed reading \(typo): weight 72.7 kg at 2026-11-21 07:30 (was weight 27.0 kg at 2026-11-21 07:30)\n")
        let moved = try await home.hmon(["reading", "edit", typo, "--at", "2026-11-21 08:15"])
        #expect(moved.stdout.hasPrefix("changed reading \(typo): weight 72.7 kg at 2026-11-21 08:15"))

        let deleted = try await home.hmon(["reading", "delete", typo])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted reading \(typo): weight 72.7 kg at 2026-11-21 08:15 from Bathroom scale\n")
        let after = try await home.hmon(["reading", "list", "--field", "weight"])
        #expect(after.stdout.split(separator: "\n").count == 2)
        #expect(!after.stdout.contains(typo))

        let again = try await home.hmon(["reading", "delete", typo])
        #expect(again.status == 1)
        #expect(again.stderr == "hmon: no reading \"\(typo)\": see `hmon reading list` for the ids\n")
    }

    @Test func theListTakesAPeriodAndALimitAndRefusesABadDate() async throws {
        let home = try Home()
        try await home.userWithScale()
        for day in 10...14 {
            try #require(await home.hmon(["add", "weight", "7\(day - 10)", "--at", "2026-11-\(day) 07:00"]).status == 0)
        }
        let period = try await home.hmon(["reading", "list", "--since", "2026-11-11", "--until", "2026-11-13"])
        // The 11th from its start to the 13th included: 71, 72, 73, newest first.
        let values = period.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "  ").last.map(String.init) ?? "" }
        #expect(values == ["weight 73.0 kg", "weight 72.0 kg", "weight 71.0 kg"], "\(period.stdout)")
        let limited = try await home.hmon(["reading", "list", "--limit", "2"])
        #expect(limited.stdout.split(separator: "\n").count == 3)
        let bad = try await home.hmon(["reading", "list", "--since", "last week"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("hmon: --since \"last week\" is not a time"))
    }

    @Test func anExportImportedIntoAnEmptyStoreExportsTheSame() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try await home.hmon(["device", "add", "--type", "Calorie Tracker", "--name", "Food, \"log\""]).status == 0)
        try #require(await home.hmon(["add", "weight", "72.45", "--at", "2026-11-20 07:30"]).status == 0)
        try #require(await home.hmon(["add", "energy", "--consumed", "650", "--comment", "curry, rice and \"dal\"",
                                "--at", "2026-11-20 12:30"]).status == 0)
        // A scale reading of two fields: two rows, one reading.
        let store = try home.store()
        let alice = try #require(try await store.user(named: "alice"))
        let scale = try #require(try await store.devices(userID: alice.id).first { $0.name == "Bathroom scale" })
        try await store.post(NewMessage(sdid: scale.id, ts: Date().millisecondsSince1970 - 3_600_000,
                                        data: [Field.weight: .number(72.3), Field.fatRatio: .number(21.125)]), userID: alice.id)

        for format in ["csv", "json"] {
            let file = home.folder.file("export.\(format)")
            let exported = try await home.hmon(["export", "--format", format, "--output", file.path])
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(exported.stderr == "exported 3 readings (5 rows) to \(file.path)\n")
            let text = try String(contentsOf: file, encoding: .utf8)
            if format == "csv" {
                #expect(text.hasPrefix("time,device,device_type,field,value,unit,reading_id\n"))
                #expect(text.contains(",\"Food, \"\"log\"\"\",Calorie Tracker,comments,\"curry, rice and \"\"dal\"\"\",,"))
            }

            let other = try Home()
            #expect(try await other.hmon(["user", "add", "bob", "--password-stdin"], stdin: "pw-bob\n").status == 0)
            let imported = try await other.hmon(["import", file.path])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("added 3 readings"), "\(imported.stdout)")
            let again = try await other.hmon(["export", "--format", format])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout == text, "a round trip loses nothing (\(format))")
            let twice = try await other.hmon(["import", file.path])
            #expect(twice.stdout.contains("added 0 readings") && twice.stdout.contains("already there: 3 readings"), "\(twice.stdout)")
        }
    }

    @Test func anExportIsFilteredAndABadDateWritesNothing() async throws {
        let home = try Home()
        try await home.userWithScale()
        #expect(try await home.hmon(["device", "add", "--type", "Calorie Tracker", "--name", "Food log"]).status == 0)
        try #require(await home.hmon(["add", "weight", "72", "--at", "2026-11-19 07:30"]).status == 0)
        try #require(await home.hmon(["add", "weight", "73", "--at", "2026-11-20 07:30"]).status == 0)
        try #require(await home.hmon(["add", "energy", "--consumed", "650", "--at", "2026-11-20 12:30"]).status == 0)

        let weights = try await home.hmon(["export", "--field", "weight", "--since", "2026-11-20"])
        let rows = weights.stdout.split(separator: "\n")
        #expect(rows.count == 2, "\(weights.stdout)")
        #expect(rows.last?.contains(",Bathroom scale,Withings Device,weight,73,kg,") == true)

        let json = try await home.hmon(["export", "--format", "json", "--until", "2026-11-19"])
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects.first?["value"] as? Double == 72)
        #expect(objects.first?["unit"] as? String == "kg")

        let file = home.folder.file("out.csv")
        let bad = try await home.hmon(["export", "--since", "2026-13-01", "--output", file.path])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("hmon: --since \"2026-13-01\" is not a time"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let nowhere = try await home.hmon(["export", "--output", home.folder.file("no/such/folder/out.csv").path])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.hasPrefix("hmon: cannot write"))
    }
}
