import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import CheckedNumbers
import SQLiteStorage

/// `hmon-bench store`: the dashboard's two hot questions on a store of 1,000,000 readings over 5 devices.
struct StoreBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Last 20 readings of a device and today's energy summary on a 1,000,000-reading store."
    )

    @Option(help: ArgumentHelp("The benchmark store (built on first use, then reused).", valueName: "path"))
    var db = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-bench/store-1M.sqlite").path

    @Option(help: "Readings to build the store with.")
    var readings = 1_000_000

    @Option(help: "Timed runs per measurement.")
    var iterations = 2000

    @Flag(help: "Rebuild the store even if it exists.")
    var rebuild = false

    func run() async throws {
        let url = URL(fileURLWithPath: db)
        if rebuild { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let store = try LocalStore(url: url, passwordHasher: .fastForTests)
        let now = Date()
        if try await store.user(named: BenchmarkData.userName) == nil {
            print("building \(url.path) with \(readings) readings over 5 devices…")
            let started = ContinuousClock.now
            try await BenchmarkData.fill(store, readings: readings, endingAt: now)
            print("built in \(ContinuousClock.now - started)")
        }
        let service = LocalHealthService(store: store)
        let user = try await service.actingAs(name: BenchmarkData.userName)
        let devices = try await service.devices()
        let count = try await store.messageCount(userID: user.id)
        print("store: \(url.path): \(count) readings, \(devices.count) devices")

        let scale = devices[0]
        let calendar = Calendar.current
        let today = Day(now, in: calendar)
        var sink = 0
        let last20 = try await Measurement.run("last 20 readings of a device", iterations: iterations) {
            sink &+= try await service.lastMessages(device: scale.id, count: 20, field: nil).count
        }
        let last20Weight = try await Measurement.run("last 20 weights (field filter)", iterations: iterations) {
            sink &+= try await service.lastMessages(device: scale.id, count: 20, field: Field.weight).count
        }
        let summary = try await Measurement.run("today's energy summary", iterations: iterations) {
            let s = try await service.energySummary(for: today, now: Date(), calendar: calendar)
            sink &+= Int(rounding: s.consumed, .towardZero)
        }
        let series = try await Measurement.run("weight series, last 90 days", iterations: max(1, iterations / 10)) {
            sink &+= try await service.weightSeries(days: today.adding(days: -89)...today, calendar: calendar).points.count
        }
        let token = try await Measurement.run("change token", iterations: iterations) {
            sink &+= Int(truncatingIfNeeded: try await service.changeToken() ?? 0)
        }
        for measurement in [last20, last20Weight, summary, series, token] { print(measurement.line) }
        if sink == 42 { print("") }  // keeps the work from being optimized away
    }
}
