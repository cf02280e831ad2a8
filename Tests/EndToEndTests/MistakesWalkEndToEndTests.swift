import Foundation
import TestSupport
import Testing

/// Issue 28's walk, in a real terminal at 60×16, 80×24 and 120×40, on the demo with a lb/kJ profile: a
/// watch's HRV with Apple's SDNN and a refused flat beat list, a typo caught and a weigh-in undone, a meal logged and corrected from the food log, a device renamed and
/// deleted (asked twice, with the count), and no screen saying kg or kcal. Without tmux the suite is skipped, and says so.
@Suite(.heavy, .enabled(if: TmuxSession.isInstalled, "needs tmux: apt-get install tmux"))
struct MistakesWalkEndToEndTests {
    static func session(width: Int, height: Int) async throws -> TmuxSession {
        try await TmuxSession(width: width, height: height, prompt: "walk$ ") { folder in
            ["HOME": folder.path, "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
             "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "TERM": "xterm-256color"]
        }
    }

    /// An Apple Watch export of two mornings (UTC): yesterday a beat list of 800 and 900 ms in turn, Apple's
    /// SDNN 48.2 ms; the day before forty beats exactly 1000 ms apart (a list that does not vary), 38.6 ms.
    static func appleWatchExport(now: Date = Date()) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        func day(_ back: Int) -> String {
            let c = utc.dateComponents([.year, .month, .day], from: now.addingTimeInterval(Double(-back) * 86_400))
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        func record(_ back: Int, sdnn: String, rr: [Double]) -> String {
            var at = 7.0 * 3600 + 14 * 60 + 48
            func clock(_ t: Double) -> String {
                let s = Int(t)
                return String(format: "%d:%02d:%02d.%02d AM", s / 3600, s / 60 % 60, s % 60, Int((t - Double(s)) * 100 + 0.5) % 100)
            }
            var beats = ["   <InstantaneousBeatsPerMinute bpm=\"70\" time=\"\(clock(at))\"/>"]
            for interval in rr {
                at += interval / 1000
                beats.append("   <InstantaneousBeatsPerMinute bpm=\"\(Int(60_000 / interval))\" time=\"\(clock(at))\"/>")
            }
            return """
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Apple Watch" sourceVersion="10.1" \
            unit="ms" creationDate="\(day(back)) 07:15:47 +0000" startDate="\(day(back)) 07:14:47 +0000" \
            endDate="\(day(back)) 07:15:47 +0000" value="\(sdnn)">
              <HeartRateVariabilityMetadataList>
            \(beats.joined(separator: "\n"))
              </HeartRateVariabilityMetadataList>
             </Record>
            """
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="\(day(0)) 06:00:00 +0000"/>
        \(record(1, sdnn: "48.2", rr: (0..<40).map { $0.isMultiple(of: 2) ? 800 : 900 }))
        \(record(2, sdnn: "38.6", rr: [Double](repeating: 1000, count: 40)))
        </HealthData>
        """
    }

    /// Words of the other profile's units on a screen, the unit key's "kg/lb" hint aside.
    static func strayUnits(_ screen: String) -> [String] {
        let words = Set(screen.replacingOccurrences(of: "kg/lb", with: "").split(whereSeparator: { !$0.isLetter }).map(String.init))
        return ["kg", "kcal"].filter(words.contains)
    }

    @Test(arguments: [(60, 16), (80, 24), (120, 40)])
    func aTypoCaughtAnUndoAMealCorrectedADeviceRenamedAndDeletedNoUnitLeak(width: Int, height: Int) async throws {
        let tmux = try await Self.session(width: width, height: height)
        try await tmux.runOutside(builtHmon(), ["demo"])
        try await tmux.runOutside(builtHmon(), ["profile", "set", "--demo", "--unit", "lb", "--energy-unit", "kJ"])
        let export = tmux.folder.appendingPathComponent("export.xml")
        try Self.appleWatchExport().write(to: export, atomically: true, encoding: .utf8)
        let imported = try await tmux.runOutside(builtHmon(), ["import", export.path, "--demo"])
        #expect(imported.contains("no variability"), "the import says why the flat list was refused: \(imported)")
        try await tmux.type("\(builtHmon().path) --demo", pressingEnter: true)
        let devices = try await tmux.waitForScreen("the devices screen") { $0.contains("Bathroom scale") }
        #expect(Self.strayUnits(devices).isEmpty, "\(devices)")

        // Every screen in lb and kJ only.
        for (key, title) in [("2", "Weight in lb"), ("3", "Energy"), ("4", "HRV"), ("5", "Insights")] {
            try await tmux.type(key)
            let screen = try await tmux.waitForScreen("screen \(key)") { $0.contains(title) }
            #expect(Self.strayUnits(screen).isEmpty, "screen \(key) at \(width)×\(height):\n\(screen)")
        }

        // The watch's HRV: Apple's SDNN in a column of its own, and the morning whose flat beat list was refused
        // says so on its row (moving down the table until it is in view).
        try await tmux.type("4")
        let hrv = try await tmux.waitForScreen("the HRV table") { $0.contains("Apple SDNN") }
        var refused = hrv.contains("refused")
        var shown = hrv
        for _ in 0..<40 where !refused {
            try await tmux.type("j")
            // The selection moves down a row; at the table's end nothing changes, and the walk stops there.
            let before = shown
            guard let moved = try await Waiting.firstValue(within: .seconds(3), { () async throws -> String? in
                let now = try await tmux.screen()
                return now != before ? now : nil
            }) else { break }
            shown = moved
            refused = moved.contains("refused")
        }
        let shownHRV = try await tmux.screen()
        #expect(refused, "a refused beat list is shown as refused: \(shownHRV)")

        // A typo caught (the demo's trend is about 150 lb): n keeps it out, then a real weigh-in, undone with U.
        try await tmux.type("2")
        try await tmux.waitForScreen("the weights") { $0.contains("Weight in lb") }
        try await tmux.type("a")
        try await tmux.waitForScreen("the weight prompt") { $0.contains("New weight in lb") }
        try await tmux.type("51.5")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the typo question") { $0.contains("51.5 lb is ") && $0.contains("under your trend") && $0.contains("y/n") }
        try await tmux.type("n")
        try await tmux.waitForScreen("the prompt again") { $0.contains("New weight in lb") && !$0.contains("y/n") }
        try await tmux.press("C-u")
        try await tmux.type("151.5")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the weigh-in saved") { !$0.contains("New weight in lb") && $0.contains("151.5") }
        try await tmux.type("U")
        try await tmux.waitForScreen("the undo said, the weigh-in gone from the table") { screen in
            screen.contains("undid") && !screen.split(separator: "\n").contains { $0.hasPrefix("│") && !$0.contains("┤") && $0.contains("151.5") }
        }
        let weights = try await tmux.runOutside(builtHmon(), ["reading", "list", "--demo", "--field", "weight", "--limit", "5"])
        #expect(!weights.contains("151.5") && !weights.contains("51.5 lb"), "\(weights)")

        // A meal, then corrected from the food log: ↑ opens the log, the meal is picked, e holds its amount.
        // The demo logs meals of its own through the day (a "Porridge with berries" breakfast at about 07:50),
        // so the meal is found by a name of its own, not by the day's total or by being the only entry.
        try await tmux.type("3")
        try await tmux.waitForScreen("the energy screen") { $0.contains("Energy · Today") }
        try await tmux.type("a")
        try await tmux.waitForScreen("the energy prompt") { $0.contains("Consumed energy in kJ") }
        try await tmux.type("2000")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("what it was") { $0.contains("What was it") }
        try await tmux.type("flapjack")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the meal logged") { !$0.contains("What was it") }
        try await tmux.type("k")
        let picked = try await Self.pick("Flapjack", in: tmux)
        #expect(Self.row(of: "Flapjack", in: picked).contains("2,000 kJ"), "\(picked)")
        try await tmux.type("e")
        try await tmux.waitForScreen("the correction prompt") { $0.contains("Energy in kJ of Flapjack") }
        try await tmux.press("C-u")
        try await tmux.type("1800")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("what it was, kept") { $0.contains("What was it") }
        try await tmux.press("Enter")
        var corrected = try await tmux.waitForScreen("the correction saved") { !$0.contains("What was it") }
        if !Self.row(of: "Flapjack", in: corrected).contains("1,800 kJ") {
            // A narrow screen shows the log only while it is in use, a short one only the picked entry.
            if !corrected.contains("›") { try await tmux.type("k") }
            _ = try await Self.pick("Flapjack", in: tmux)
            corrected = try await tmux.waitForScreen("the corrected meal") { Self.row(of: "Flapjack", in: $0).contains("1,800 kJ") }
        }
        #expect(!Self.row(of: "Flapjack", in: corrected).contains("2,000 kJ"), "\(corrected)")

        // The scale renamed, then deleted: the second question says how many readings go with it.
        try await tmux.type("1")
        try await tmux.waitForScreen("the devices again") { $0.contains("Bathroom scale") }
        try await tmux.type("e")
        try await tmux.waitForScreen("the rename prompt") { $0.contains("New name for Bathroom scale") }
        try await tmux.press("C-u")
        try await tmux.type("Hall scale")
        try await tmux.press("Enter")
        try await tmux.waitForScreen("the new name") { $0.contains("Hall scale") && !$0.contains("Bathroom scale") }
        try await tmux.type("d")
        try await tmux.waitForScreen("the first question") { $0.contains("Delete Hall scale? y/n") }
        try await tmux.type("y")
        try await tmux.waitForScreen("the second question, with the count") { $0.contains(/Hall scale has \d+ readings: delete them too\? y\/n/) }
        try await tmux.type("y")
        try await tmux.waitForScreen("the scale gone") { !$0.contains("Hall scale ") || $0.contains("deleted Hall scale") }
        let listed = try await tmux.runOutside(builtHmon(), ["device", "list", "--demo"])
        #expect(!listed.contains("Hall scale") && !listed.contains("Bathroom scale"), "\(listed)")

        try await tmux.type("q")
        try await tmux.waitForScreen("the shell after hmon") { $0.split(separator: "\n").last?.hasPrefix("walk$") == true }
    }

    /// The screen's line holding `name` ("" when none).
    static func row(of name: String, in screen: String) -> String {
        screen.split(separator: "\n").first { $0.contains(name) }.map(String.init) ?? ""
    }

    /// Moves the food log's selection (›) down to the entry `name`, the newest of the day; the screen then.
    static func pick(_ name: String, in tmux: TmuxSession) async throws -> String {
        var screen = ""
        // A short screen shows only the picked entry, so the name may come into view only when picked.
        for _ in 0..<12 {
            screen = try await tmux.waitForScreen("the food log with an entry picked") { $0.contains("›") }
            if row(of: name, in: screen).contains("›") { return screen }
            try await tmux.type("j")
        }
        throw TmuxSession.Timeout(description: "the food log never picked \(name); it shows:\n\(screen)")
    }
}
