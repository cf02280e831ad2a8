import Foundation
@testable import HMonTUI
import HealthConnectors
import HealthCore
import HealthModel
import HealthViewModels
import SQLiteStorage
import Terminal
import Testing

/// The Sleep screen over a real SQLite store: seven nights posted as Health Connect sends them (through the
/// payload reader and the arrival that `hmon serve`'s route runs), drawn at 80×24 and 120×40 against
/// reviewed frames, with each night's time asleep, the selected night's hypnogram and the 7-day SRI of seven
/// nights at the same hours, 100 (`SleepMeasuresTests`); ←/→ move by night and `t` goes to a date.
@MainActor
struct SleepScreenTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        return calendar
    }

    /// HC Webhook's sessions for the seven nights ending on Nov 14–20, 2026: in bed 23:00–07:00 Berlin time,
    /// deep from 23:30 to 01:30, REM to 03:00, light to 07:00 (450 min asleep); the last night's light sleep
    /// broken by 20 minutes awake at 04:00, so it is 430 min asleep and its hypnogram shows it.
    static func sevenNights() -> String {
        let formatter = ISO8601DateFormatter()
        let sessions = (14...20).map { day -> String in
            let morning = Day(year: 2026, month: 11, day: day).start(in: calendar)
            func at(_ hours: Double) -> String { formatter.string(from: morning.addingTimeInterval(hours * 3600)) }
            let light = day == 20
                ? #"{"stage": "light", "start_time": "\#(at(3))", "end_time": "\#(at(4))"}, {"stage": "awake", "start_time": "\#(at(4))", "end_time": "\#(at(4 + 1 / 3))"}, {"stage": "light", "start_time": "\#(at(4 + 1 / 3))", "end_time": "\#(at(7))"}"#
                : #"{"stage": "light", "start_time": "\#(at(3))", "end_time": "\#(at(7))"}"#
            return """
                {"session_end_time": "\(at(7))", "duration_seconds": 28800, "stages": [
                  {"stage": "deep", "start_time": "\(at(-0.5))", "end_time": "\(at(1.5))"},
                  {"stage": "rem", "start_time": "\(at(1.5))", "end_time": "\(at(3))"}, \(light)]}
                """
        }
        return #"{"timestamp": "2026-11-20T08:00:00Z", "app_version": "1.9.15", "sleep": ["# + sessions.joined(separator: ",") + "]}"
    }

    /// A temporary folder, removed with the last reference to it.
    final class Folder {
        // Named as the demo's folder is, so the reference frames mask its random part (`DemoWorld.stable`).
        let url = URL(fileURLWithPath: "/tmp/hmon-snap-" + String(UUID().uuidString.lowercased().filter(\.isHexDigit).prefix(8)), isDirectory: true)
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// A store with ana's seven nights, and a dashboard on it at Fri Nov 20, 2026 18:00 in Berlin.
    static func world() async throws -> (Folder, Dashboard) {
        let folder = try Folder()
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        let service = LocalHealthService(store: store, userID: user.id)
        let payload = try HealthConnectPayload(json: Data(sevenNights().utf8), calendar: calendar)
        let tally = try await HealthConnectArrival.store(payload.readings, service: service, userID: user.id, now: DemoWorld.now)
        #expect(tally.added[.sleep] == 7 && tally.refusals.isEmpty)
        let app = AppModel(service: service, clock: Clock.fixed(DemoWorld.now, timeZone: berlin))
        let dashboard = Dashboard(app: app)
        dashboard.run(app.startSignedIn())
        await dashboard.settle()
        _ = await dashboard.press(.char("7"))
        return (folder, dashboard)
    }

    @Test func sevenNightsFromHealthConnectShowWithTheirTimeAsleepAndRegularity() async throws {
        let (folder, dashboard) = try await Self.world()
        defer { _ = folder }
        #expect(dashboard.current.id == .sleep)
        for size in [Size(width: 80, height: 24), Size(width: 120, height: 40)] {
            let canvas = await dashboard.snapshot(of: "sleep", size: size)
            try expectSnapshot(canvas, named: "sleep-health-connect-\(size.width)x\(size.height)")
        }
        let text = frame(of: dashboard, size: Size(width: 120, height: 40))
        #expect(text.contains("SRI 7 d "), "\(text)")
        #expect(text.contains("Fri 20 Nov 23:00–07:00"), "the last night is selected: \(text)")
        #expect(text.contains("7 h 10"), "the last night's 430 minutes")
        #expect(text.components(separatedBy: "7 h 30").count - 1 >= 6, "the six nights before, 450 minutes each")
        #expect(text.contains("latency 30 min · awake after sleep onset 20 min"), "\(text)")
    }

    @Test func leftAndRightMoveByNightAndTGoesToADate() async throws {
        let (folder, dashboard) = try await Self.world()
        defer { _ = folder }
        let size = Size(width: 120, height: 40)
        _ = await dashboard.press(.left)
        #expect(frame(of: dashboard, size: size).contains("Thu 19 Nov 23:00–07:00"))
        _ = await dashboard.press(.right)
        #expect(frame(of: dashboard, size: size).contains("Fri 20 Nov 23:00–07:00"))
        _ = await dashboard.press(.char("t"))
        for key in "2026-11-16" { _ = await dashboard.press(.char(key)) }
        _ = await dashboard.press(.enter)
        #expect(frame(of: dashboard, size: size).contains("Mon 16 Nov 23:00–07:00"), "\(frame(of: dashboard, size: size))")
    }

    @Test func anAppleNightWithStagesShowsItsHypnogram() async throws {
        let folder = try Folder()
        let store = try LocalStore(url: folder.url.appendingPathComponent("hmon.sqlite"), passwordHasher: .fastForTests)
        let user = try await store.createUser(NewAccount(name: "ana", password: "secret-pw"))
        func record(_ value: String, _ start: String, _ end: String) -> String {
            #"<Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Apple Watch" startDate="\#(start)" endDate="\#(end)" value="HKCategoryValueSleepAnalysis\#(value)"/>"#
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_GB">
            \(record("InBed", "2026-11-19 22:45:00 +0100", "2026-11-20 06:45:00 +0100"))
            \(record("AsleepCore", "2026-11-19 23:00:00 +0100", "2026-11-20 01:00:00 +0100"))
            \(record("AsleepDeep", "2026-11-20 01:00:00 +0100", "2026-11-20 02:00:00 +0100"))
            \(record("AsleepREM", "2026-11-20 02:00:00 +0100", "2026-11-20 03:00:00 +0100"))
            \(record("Awake", "2026-11-20 03:00:00 +0100", "2026-11-20 03:10:00 +0100"))
            \(record("AsleepCore", "2026-11-20 03:10:00 +0100", "2026-11-20 06:30:00 +0100"))
            </HealthData>
            """
        let file = folder.url.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: file)
        _ = try await store.importFile(file, userID: user.id, dryRun: false, timeZone: Self.berlin, now: DemoWorld.now, progress: nil)
        let service = LocalHealthService(store: store, userID: user.id)
        let app = AppModel(service: service, clock: Clock.fixed(DemoWorld.now, timeZone: Self.berlin))
        let dashboard = Dashboard(app: app)
        dashboard.run(app.startSignedIn())
        await dashboard.settle()
        _ = await dashboard.press(.char("7"))
        let text = frame(of: dashboard, size: Size(width: 80, height: 24))
        let lines = text.split(separator: "\n").map(String.init)
        // 80 columns: 480 minutes drawn as 70 columns, each the stage most of its minutes were in.
        let deep = try #require(lines.first { $0.contains("Deep") && $0.contains("█") }, "\(text)")
        let rem = try #require(lines.first { $0.contains("REM") && $0.contains("█") })
        #expect(deep.firstIndex(of: "█")! < rem.firstIndex(of: "█")!, "deep sleep at 01:00 before REM at 02:00")
        #expect(text.contains("22:45") && text.contains("06:45"))
        #expect(text.contains("latency 15 min · awake after sleep onset 10 min · midpoint 02:45"), "\(text)")
        #expect(text.contains("7 h 20"), "440 minutes asleep")
    }
}
