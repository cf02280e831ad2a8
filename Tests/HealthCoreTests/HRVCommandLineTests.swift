import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// `hmon add hrv`, run as the built binary against a store in a temporary folder.
@Suite struct HRVCommandLineTests {
    typealias Home = CommandLineTests.Home

    /// A user with an HRV meter, made through the command line.
    static func userWithMeter() async throws -> Home {
        let home = try Home()
        let user = try await home.hmon(["user", "add", "alice", "--password-stdin"], stdin: "pw-alice\n")
        try #require(user.status == 0, "\(user.stderr)")
        let device = try await home.hmon(["device", "add", "--type", "HRV Meter", "--name", "Welltory", "--user", "alice"])
        try #require(device.status == 0, "\(device.stderr)")
        return home
    }

    static func lastReading(_ home: Home) async throws -> [String: FieldValue]? {
        let store = try home.store()
        let user = try #require(try await store.users().first)
        let service = LocalHealthService(store: store, userID: user.id)
        let meter = try #require(try await service.devices().first)
        return try await service.lastMessages(device: meter.id, count: 1, field: nil).first?.data
    }

    @Test func typedFiguresAreStoredAndSaid() async throws {
        let home = try await Self.userWithMeter()
        let outcome = try await home.hmon(["add", "hrv", "--stress", "0.32", "--energy", "0.75", "--rmssd", "90.3", "--user", "alice"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("added an HRV measurement to Welltory at "))
        #expect(outcome.stdout.contains("RMSSD 90.3 ms · stress 0.32 · energy 0.75"))
        let data = try #require(try await Self.lastReading(home))
        #expect(data[Field.rmssd] == .number(90.3))
        #expect(data[Field.source] == .text("manual"))
    }

    @Test func outOfRangeFiguresAreRefusedNamingTheFieldAndNothingIsStored() async throws {
        let home = try await Self.userWithMeter()
        let stress = try await home.hmon(["add", "hrv", "--stress", "1.4", "--user", "alice"])
        #expect(stress.status == 1)
        #expect(stress.stderr.contains("stress 1.4 is outside 0–1"))
        let rmssd = try await home.hmon(["add", "hrv", "--rmssd", "-3", "--user", "alice"])
        #expect(rmssd.status == 1)
        #expect(rmssd.stderr.contains("rmssd -3 ms is outside 0–1000 ms"))
        #expect(try await Self.lastReading(home) == nil)
    }

    @Test func welltorysCallbackLinkIsStoredWithItsColours() async throws {
        let home = try await Self.userWithMeter()
        let url = "https://example.org/hrv/?stress=0.32&energy=0.75&productivity=0.63&rmssd=90.3&sdnn=45.1&power=100"
            + "&stress_c=green&productivity_c=red&energy_c=yellow&token=abc123"
        let outcome = try await home.hmon(["add", "hrv", "--from-url", url, "--user", "alice"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("stress 0.32 (good) · energy 0.75 (normal) · productivity 0.63 (bad)"))
        let data = try #require(try await Self.lastReading(home))
        #expect(data[Field.productivityColor] == .text("red"))
        #expect(data[Field.shareToken] == .text("abc123"))
        #expect(data[Field.totalPower] == .number(100))
        #expect(data[Field.source] == .text("welltory"))
        let bad = try await home.hmon(["add", "hrv", "--from-url", "https://example.org/?stress=lots", "--user", "alice"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("the parameter stress=\"lots\" is not a number"))
    }

    @Test func aFileOfBeatsIsAnalysedAndStored() async throws {
        let home = try await Self.userWithMeter()
        let file = home.folder.file("beats.txt")
        let text = "RR (ms)\n\n" + HRVFixtures.fiveMinutes.map { String(Int($0)) }.joined(separator: "\n") + "\n\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await home.hmon(["add", "hrv", "--rr", file.path, "--user", "alice"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("RMSSD 35.9 ms · SDNN 39.8 ms"))
        #expect(outcome.stdout.contains("from 353 intervals, 7 replaced by Malik's rule"))
        let data = try #require(try await Self.lastReading(home))
        #expect(data[Field.source] == .text("beats"))
        #expect(data[Field.totalPower] == .number(1371))
        try "RR\n800\nabc\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = try await home.hmon(["add", "hrv", "--rr", file.path, "--user", "alice"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("line 3: \"abc\" is not an interval in ms"))
    }

    /// Issue 28, item 6: every `add` makes the device it needs on a fresh account and says so, as
    /// `add weight` does, instead of stopping at "add a device".
    @Test func everyAddOnAFreshAccountMakesTheDeviceItNeedsAndSaysSo() async throws {
        let home = try Home()
        _ = try await home.hmon(["user", "add", "bob", "--password-stdin"], stdin: "pw-bob\n")
        for (arguments, made) in [(["add", "hrv", "--rmssd", "50"], "\"HRV meter\" (HRV Meter)"),
                                  (["add", "energy", "--active", "320"], "\"Activity tracker\" (Activity Tracker)"),
                                  (["add", "energy", "--consumed", "450"], "\"Food log\""),
                                  (["add", "weight", "72.4"], "\"Scale\"")] {
            let outcome = try await home.hmon(arguments + ["--user", "bob"])
            #expect(outcome.status == 0, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("made the device \(made)"), "\(arguments): \(outcome.stderr)")
            // The second time the device is there: nothing more is made.
            let again = try await home.hmon(arguments + ["--user", "bob"])
            #expect(again.status == 0 && !again.stderr.contains("made the device"), "\(arguments): \(again.stderr)")
        }
        let bob = try #require(try await home.store().user(named: "bob"))
        #expect(try await home.store().devices(userID: bob.id).count == 4)
    }

    /// Issue 28, item 7: `hmon hrv list|show`, in text and JSON, as the other commands.
    @Test func hrvListAndShowPrintTheMeasurementsInTextAndJSON() async throws {
        let home = try await Self.userWithMeter()
        #expect(try await home.hmon(["add", "hrv", "--rmssd", "52.4", "--sdnn", "61", "--stress", "0.32", "--at", "2026-11-20 07:10", "--user", "alice"]).status == 0)
        #expect(try await home.hmon(["add", "hrv", "--rmssd", "47.1", "--at", "2026-11-21 07:05", "--user", "alice"]).status == 0)
        #expect(try await home.hmon(["add", "weight", "72.4", "--user", "alice"]).status == 0, "not an HRV measurement")

        let listed = try await home.hmon(["hrv", "list", "--user", "alice"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "a header and two measurements, no weigh-in: \(listed.stdout)")
        #expect(lines[1].hasPrefix("2026-11-21 07:05  47.1") && lines[2].contains("52.4   61.0  —           32 %"), "\(listed.stdout)")

        let json = try await home.hmon(["hrv", "list", "--json", "--limit", "1", "--user", "alice"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1 && array[0]["rmssd"] as? Double == 47.1 && array[0]["device"] as? String == "Welltory")
        #expect(array[0]["source"] as? String == "manual" && array[0]["id"] is String)

        let older = try #require(lines[2].split(separator: " ").last.map(String.init))
        let shown = try await home.hmon(["hrv", "show", String(older.prefix(6)), "--json", "--user", "alice"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == older && object["sdnn"] as? Double == 61 && object["stress"] as? Double == 0.32)
        let text = try await home.hmon(["hrv", "show", older, "--user", "alice"])
        #expect(text.stdout.contains("rmssd") && text.stdout.contains("52.4"), "\(text.stdout)")

        let weighIn = try #require(try await home.hmon(["reading", "list", "--field", "weight", "--user", "alice"]).stdout
            .split(separator: "\n").dropFirst().first?.split(separator: " ").first.map(String.init))
        let notHRV = try await home.hmon(["hrv", "show", weighIn, "--user", "alice"])
        #expect(notHRV.status == 1 && notHRV.stderr.contains("is not an HRV measurement"), "\(notHRV.stderr)")
    }

    /// An Apple Health export of two mornings of an Apple Watch: on Nov 19 beats 800 and 900 ms in turn
    /// (RMSSD 100 ms, SDNN 50 · √(40/39) = 50.6 ms by hand) with Apple's SDNN 48.2 ms; on Nov 20 forty beats
    /// exactly 1000 ms apart (no variability: refused) with Apple's SDNN 38.6 ms.
    static let appleWatchExport: String = {
        func record(day: Int, sdnn: String, rr: [Double]) -> String {
            var at = 7.0 * 3600 + 14 * 60 + 48
            func time(_ seconds: Double) -> String {
                let cs = Int((seconds * 100).rounded())
                return String(format: "%02d:%02d:%02d.%02d", cs / 360_000, cs / 6000 % 60, cs / 100 % 60, cs % 100)
            }
            var beats = ["   <InstantaneousBeatsPerMinute bpm=\"70\" time=\"\(time(at))\"/>"]
            for interval in rr {
                at += interval / 1000
                beats.append("   <InstantaneousBeatsPerMinute bpm=\"\(Int(60_000 / interval))\" time=\"\(time(at))\"/>")
            }
            return """
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" unit="ms" \
            startDate="2026-11-\(day) 07:14:47 +0000" endDate="2026-11-\(day) 07:15:47 +0000" value="\(sdnn)">
              <HeartRateVariabilityMetadataList>
            \(beats.joined(separator: "\n"))
              </HeartRateVariabilityMetadataList>
             </Record>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
            \(record(day: 19, sdnn: "48.2", rr: (0..<40).map { $0.isMultiple(of: 2) ? 800 : 900 }))
            \(record(day: 20, sdnn: "38.6", rr: [Double](repeating: 1000, count: 40)))
            </HealthData>
            """
    }()

    /// Issue 28, item 2: Apple's SDNN is a figure of its own beside hmon's, in text and JSON, and a flat beat
    /// list's record is listed with Apple's SDNN and why its beats were refused.
    @Test func hrvListShowsApplesSDNNBesideTheBeatFiguresAndWhyAFlatListWasRefused() async throws {
        let home = try await Self.userWithMeter()
        let file = home.folder.file("export.xml")
        try Self.appleWatchExport.write(to: file, atomically: true, encoding: .utf8)
        let imported = try await home.hmon(["import", file.path, "--user", "alice"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("1 HRV beat lists with no variability"), "\(imported.stdout)")

        let listed = try await home.hmon(["hrv", "list", "--user", "alice"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let lines = listed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(listed.stdout)")
        #expect(lines[0].contains("RMSSD  SDNN  APPLE SDNN"), "\(listed.stdout)")
        #expect(lines[1].contains("38.6") && lines[1].contains("watch, beats refused: no variability"), "\(listed.stdout)")
        #expect(lines[2].contains("100.0  50.6  48.2") && lines[2].contains("beats"), "\(listed.stdout)")

        let json = try await home.hmon(["hrv", "list", "--json", "--user", "alice"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array[0]["appleSDNN"] as? Double == 38.6 && array[0]["beatsRefused"] as? String == "no variability")
        #expect(array[0]["rmssd"] == nil && array[0]["device"] as? String == "Apple Watch (HRV Meter)")
        #expect(array[1]["appleSDNN"] as? Double == 48.2 && array[1]["rmssd"] as? Double == 100 && array[1]["sdnn"] as? Double == 50.6)
        #expect(array[1]["source"] as? String == "beats")

        let refusedID = try #require(array[0]["id"] as? String)
        let shown = try await home.hmon(["hrv", "show", refusedID, "--user", "alice"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("beatsRefused") && shown.stdout.contains("no variability"), "\(shown.stdout)")
    }

    /// Issue 28, item 2: `hmon add hrv --rr` refuses a file whose intervals do not vary, naming the file, and
    /// stores nothing.
    @Test func aFlatFileOfBeatsIsRefusedAndNothingIsStored() async throws {
        let home = try await Self.userWithMeter()
        let file = home.folder.file("flat.txt")
        try ([String](repeating: "1000", count: 60).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await home.hmon(["add", "hrv", "--rr", file.path, "--user", "alice"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("\(file.path): the intervals do not vary (RMSSD 0.0 ms, under 1 ms)"), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "one line: \(outcome.stderr)")
        #expect(try await Self.lastReading(home) == nil)
    }

    @Test func hrvLinkPrintsTheMeasurementRequestAndRevokeStopsIt() async throws {
        let home = try await Self.userWithMeter()
        let outcome = try await home.hmon(["hrv", "link", "--base-url", "http://192.168.1.20:8080/", "--user", "alice"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let link = try #require(outcome.stdout.split(separator: "\n").first { $0.hasPrefix("https://welltory.com/") })
        let callback = try #require(URLComponents(string: String(link))?.queryItems?.first { $0.name == "callback" }?.value)
        #expect(callback.hasPrefix("http://192.168.1.20:8080/welltory/"))
        let secret = String(callback.dropFirst("http://192.168.1.20:8080/welltory/".count))
        #expect(secret.count == 64)
        let store = try home.store()
        #expect(try await store.storeWelltoryResult(secret: secret, data: [Field.rmssd: .number(50)]) == .saved(deviceName: "Welltory"))
        let revoke = try await home.hmon(["hrv", "link", "--revoke", "--user", "alice"])
        #expect(revoke.stdout.contains("revoked alice's Welltory link"))
        #expect(try await store.storeWelltoryResult(secret: secret, data: [Field.rmssd: .number(50)]) == .unknownLink)
    }

    /// Issue 26, item 4: a link whose callback names this machine reaches the phone itself, never the server.
    @Test func hrvLinkRefusesALoopbackOrMissingBaseURLUnlessAsked() async throws {
        let home = try await Self.userWithMeter()
        for base in ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"] {
            let refused = try await home.hmon(["hrv", "link", "--base-url", base, "--user", "alice"])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("names this machine to itself") && refused.stderr.contains("--allow-loopback"), "\(refused.stderr)")
        }
        let missing = try await home.hmon(["hrv", "link", "--user", "alice"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("--base-url is required"), "\(missing.stderr)")
        let asked = try await home.hmon(["hrv", "link", "--base-url", "http://127.0.0.1:8080", "--allow-loopback", "--user", "alice"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.contains("callback=http%3A%2F%2F127.0.0.1%3A8080%2Fwelltory%2F") || asked.stdout.contains("127.0.0.1:8080/welltory/"),
                "\(asked.stdout)")
    }
}
