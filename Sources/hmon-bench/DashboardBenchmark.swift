import ArgumentParser
import Foundation
import HMonTUI
import HealthCore
import HealthModel
import HealthViewModels
import Terminal
import SQLiteStorage
import RemoteClient

/// `hmon-bench dashboard`: the dashboard on the demo store plus a million extra readings.
///
/// `--prepare DIR` builds that store under DIR's XDG folders and saves a demo session there, so
/// `Benchmarks/dashboard-bench.sh` can time the real binary's launch to its first frame, its memory and
/// its idle CPU in tmux. Without it, it measures in-process what R and a switch to each screen cost: the
/// screen's load through the service and the redraw of the frame, on the in-memory canvas. With `--server`
/// the same, through a running `hmon serve` of that store (`Benchmarks/remote-frame.sh` runs both).
struct DashboardBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "R to redrawn frame on each dashboard screen (demo store + 1,000,000 readings); --prepare builds the store.")

    @Option(help: ArgumentHelp("A folder to prepare: XDG data and config with the demo store and a session.", valueName: "dir"))
    var prepare: String?

    @Option(help: ArgumentHelp("The store to measure (default: the one --prepare made in the temporary folder).", valueName: "path"))
    var db = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-dashboard-bench/data/hmon/demo.sqlite").path

    @Option(help: "Extra readings on top of the demo data.")
    var readings = 1_000_000

    @Option(help: "Timed runs per measurement.")
    var iterations = 300

    @Option(help: ArgumentHelp("The frame size, WIDTHxHEIGHT.", valueName: "size"))
    var size = "100x30"

    @Option(help: ArgumentHelp("Measure through this running `hmon serve` of the store, signed in as demo.", valueName: "url"))
    var server: String?

    func run() async throws {
        if let prepare {
            try await Self.prepare(folder: URL(fileURLWithPath: prepare), readings: readings)
            return
        }
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw ValidationError("--size is WIDTHxHEIGHT, like 100x30") }
        let service: any HealthService
        if let server {
            guard let url = URL(string: server), url.host != nil else { throw ValidationError("--server is a URL, like http://127.0.0.1:8080") }
            let remote = RemoteHealthService(server: url)
            _ = try await remote.signIn(name: DemoData.userName, password: DemoData.password)
            service = remote
        } else {
            let store = try LocalStore(url: URL(fileURLWithPath: db), footprint: .interactive)  // as the dashboard opens it
            let local = LocalHealthService(store: store)
            try await local.actingAs(name: DemoData.userName)
            service = local
        }
        try await Self.measure(service, size: Size(width: parts[0], height: parts[1]), iterations: iterations)
    }

    /// The demo store (as `hmon --demo` makes it) plus `readings` more, spread over two years on the
    /// demo's scale, activity tracker and food log; and a saved session so `hmon` opens signed in.
    static func prepare(folder: URL, readings: Int) async throws {
        let paths = HMonPaths(dataDirectory: folder.appendingPathComponent("data/hmon"),
                              configDirectory: folder.appendingPathComponent("config/hmon"))
        try FileManager.default.createDirectory(at: paths.dataDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: paths.configDirectory, withIntermediateDirectories: true)
        let url = paths.demoDatabase
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let now = Date()
        let started = ContinuousClock.now
        let store = try await DemoData.openStore(at: url, now: now)
        let service = LocalHealthService(store: store)
        let session = try await service.signIn(name: DemoData.userName, password: DemoData.password)
        try SessionStore(paths: paths).save(session)
        let user = try await service.currentUser()
        let devices = try await service.devices()
        var manifests: [String: Manifest] = [:]
        for device in devices { manifests[device.dtid] = try await service.manifest(ofType: device.dtid) }
        let span: Int64 = 2 * 365 * 86_400_000
        let spacing = max(1, span / Int64(max(1, readings)))
        // Older than the demo's own six months, so the screens look as they do on a fresh demo store.
        let end = now.millisecondsSince1970 - Int64(DemoData.days + 1) * 86_400_000
        var batch: [NewMessage] = []
        batch.reserveCapacity(50_000)
        for i in 0..<readings {
            let device = devices[i % devices.count]
            let manifest = manifests[device.dtid]
            let data: [String: FieldValue] = if manifest?.hasWeight == true {
                [Field.weight: .number(70 + Double(i % 80) / 10)]
            } else if manifest?.field(Field.calories) != nil {
                [Field.calories: .number(Double(100 + i % 600))]
            } else if manifest?.field(Field.activeEnergy) != nil {
                [Field.activeEnergy: .number(Double(i % 40))]
            } else {
                // Another kind of device (the HRV meter): an RMSSD, the one figure every measurement has.
                [Field.rmssd: .number(Double(30 + i % 40))]
            }
            batch.append(NewMessage(sdid: device.id, ts: end - Int64(i) * spacing, data: data))
            if batch.count == 50_000 {
                _ = try await store.postBatch(batch, userID: user.id, now: now)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = try await store.postBatch(batch, userID: user.id, now: now) }
        print("prepared \(url.path) (+\(readings) readings) and a demo session in \(ContinuousClock.now - started)")
    }

    @MainActor
    static func measure(_ service: any HealthService, size: Size, iterations: Int) async throws {
        let clock = ContinuousClock()

        let openStart = clock.now
        let app = AppModel(service: service, clock: .system)
        let dashboard = Dashboard(app: app)
        dashboard.resize(to: size)
        dashboard.run(app.startSignedIn())
        await dashboard.settle()
        _ = dashboard.frame(size: size)
        print("signed-in app to first devices frame (in process): \(Self.milliseconds(clock.now - openStart)) ms")

        for screen in dashboard.screens {
            dashboard.run(dashboard.show(screen.id))
            await dashboard.settle()
            var samples: [Duration] = []
            for run in 0..<(iterations + 20) {
                let start = clock.now
                _ = dashboard.perform(.refresh)
                await dashboard.settle()
                _ = dashboard.frame(size: size)
                if run >= 20 { samples.append(clock.now - start) }
            }
            report("R to redrawn frame, \(screen.title.lowercased()):", samples)
            // A switch from another screen: the screen's whole load (no ETag of its own yet) and its frame.
            guard let other = dashboard.screens.first(where: { $0.id != screen.id }) else { continue }
            var switches: [Duration] = []
            for run in 0..<(iterations / 3 + 5) {
                dashboard.run(dashboard.show(other.id))
                await dashboard.settle()
                let start = clock.now
                dashboard.run(dashboard.show(screen.id))
                await dashboard.settle()
                _ = dashboard.frame(size: size)
                if run >= 5 { switches.append(clock.now - start) }
            }
            report("switch to frame, \(screen.title.lowercased()):", switches)
        }
        let draw = try await Self.time(iterations) { _ = dashboard.frame(size: size) }
        print("draw one frame (no I/O):".padding(toLength: 36, withPad: " ", startingAt: 0) + " median \(draw) ms")
    }

    static func report(_ what: String, _ samples: [Duration]) {
        let sorted = samples.sorted()
        let median = milliseconds(sorted[sorted.count / 2])
        let p99 = milliseconds(sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
        print(what.padding(toLength: 36, withPad: " ", startingAt: 0) + " median \(median) ms   p99 \(p99) ms   (\(sorted.count) runs)")
    }

    @MainActor
    static func time(_ iterations: Int, _ body: () -> Void) async throws -> String {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        for _ in 0..<iterations {
            let start = clock.now
            body()
            samples.append(clock.now - start)
        }
        samples.sort()
        return milliseconds(samples[samples.count / 2])
    }

    static func milliseconds(_ d: Duration) -> String {
        String(format: "%.3f", Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)
    }
}
