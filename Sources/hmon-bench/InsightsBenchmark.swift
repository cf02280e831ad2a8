import ArgumentParser
import Foundation
import HealthCore
import HealthModel
import SQLiteStorage

/// `hmon-bench insights`: the whole Insights computation (daily totals from the store, attributes,
/// medians, every correlation with BH, findings) on a ten-year store of about 5,000,000 readings.
/// The floor, measured in the same run, is SQLite counting the window's readings from the index alone:
/// the least any computation over those days must pay.
struct InsightsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insights",
        abstract: "The whole Insights computation on a 10-year store of ~5,000,000 readings (target: under 200 ms)."
    )

    @Option(help: ArgumentHelp("The benchmark store (built on first use, then reused).", valueName: "path"))
    var db = FileManager.default.temporaryDirectory.appendingPathComponent("hmon-bench/insights-10y.sqlite").path

    @Option(help: "Years of readings.")
    var years = 10

    @Option(help: "Watch samples a day (active energy and steps, each its own reading, as Apple Health keeps them).")
    var samplesPerDay = 1_360

    @Option(help: "Timed runs.")
    var iterations = 20

    @Flag(help: "Rebuild the store even if it exists.")
    var rebuild = false

    func run() async throws {
        let url = URL(fileURLWithPath: db)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if rebuild { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let store = try LocalStore(url: url, passwordHasher: .fastForTests)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let now = Date()
        if try await store.user(named: BenchmarkData.userName) == nil {
            print("building \(url.path): \(years) years, \(samplesPerDay) watch samples a day…")
            let started = ContinuousClock.now
            try await Self.fill(store, years: years, samplesPerDay: samplesPerDay, now: now, calendar: calendar)
            print("built in \(ContinuousClock.now - started)")
        }
        let service = LocalHealthService(store: store)
        let user = try await service.actingAs(name: BenchmarkData.userName)
        let count = try await store.messageCount(userID: user.id)
        print("store: \(url.path): \(count) readings")

        let today = Day(now, in: calendar)
        let window = InsightsReport.neededDays(today: today)
        let from = window.lowerBound.start(in: calendar).millisecondsSince1970
        var sink = 0
        // Cold: no day's sums kept yet, every reading of the window read from its JSON (once per store).
        try await store.forgetDayTotals()
        let coldStart = ContinuousClock.now
        sink &+= try await service.insightsReport(now: now, calendar: calendar).correlations.count
        let cold = ContinuousClock.now - coldStart
        let floor = await Measurement.run("floor: count the window's readings", warmup: 3, iterations: iterations) {
            sink &+= (try? await store.countReadings(userID: user.id, from: from)) ?? 0
        }
        let whole = try await Measurement.run("insights, per-day sums kept", warmup: 3, iterations: iterations) {
            let report = try await service.insightsReport(now: now, calendar: calendar)
            sink &+= report.correlations.count + report.findings.count
        }
        let report = try await service.insightsReport(now: now, calendar: calendar)
        print("insights, cold (no per-day sums kept): \(cold)")
        print(floor.line)
        print(whole.line)
        print(String(format: "ratio to the floor: %.1f× (median)", whole.median / floor.median))
        print("\(report.testedPairs) pairs tested, \(report.correlations.count) correlations, \(report.findings.count) findings, "
              + "\(report.averages.count) attributes averaged (checksum \(sink % 1000))")
    }

    /// Ten years of a watch wearer who weighs in, logs food and measures HRV: per day one weigh-in with
    /// body fat, four meals, a resting heart rate and an HRV reading, and `samplesPerDay` watch samples.
    static func fill(_ store: LocalStore, years: Int, samplesPerDay: Int, now: Date, calendar: Calendar) async throws {
        let user = try await store.createUser(NewAccount(name: BenchmarkData.userName, fullName: "Benchmark", password: "benchmark"))
        try await store.updateProfile(Profile(birthDate: Day(iso: "1985-06-15"), sex: .male, heightCm: 181), userID: user.id)
        func device(_ type: BuiltInDeviceType, _ name: String) async throws -> Device {
            try await store.addDevice(name: name, typeID: type.deviceType.id, userID: user.id)
        }
        let scale = try await device(.withings, "Scale"), watch = try await device(.activityTracker, "Watch")
        let food = try await device(.calorieTracker, "Food log"), hrv = try await device(.hrvMeter, "Welltory")
        let today = Day(now, in: calendar)
        let days = years * 365
        var random = SystemRandomNumberGenerator()
        var messages: [NewMessage] = []
        for back in stride(from: days - 1, through: 0, by: -1) {
            let day = today.adding(days: -back)
            let start = day.start(in: calendar).millisecondsSince1970
            func at(_ hours: Double) -> Int64 { start + Int64(hours * 3_600_000) }
            let kg = 85 - 0.003 * Double(days - back) + Double.random(in: -0.5...0.5, using: &random)
            messages.append(NewMessage(sdid: scale.id, ts: at(7), data: [Field.weight: .number((kg * 10).rounded() / 10),
                                                                        ReadingKind.bodyFat.field: .number(22 + Double.random(in: -1...1, using: &random))]))
            for (i, hour) in [8.0, 12.5, 16, 19.5].enumerated() {
                messages.append(NewMessage(sdid: food.id, ts: at(hour), data: [Field.calories: .number(Double(300 + 150 * i + Int.random(in: 0...300, using: &random)))]))
            }
            messages.append(NewMessage(sdid: watch.id, ts: at(0.1), data: [Field.restingHeartRate: .number(Double(Int.random(in: 52...64, using: &random)))]))
            messages.append(NewMessage(sdid: hrv.id, ts: at(7.2), data: [Field.rmssd: .number(Double.random(in: 30...70, using: &random)),
                                                                        Field.stress: .number(Double.random(in: 0.1...0.9, using: &random))]))
            // Watch samples from 06:00 to 22:00, alternating active energy and steps.
            let step = 16.0 / Double(samplesPerDay)
            for s in 0..<samplesPerDay {
                let data: [String: FieldValue] = s % 2 == 0 ? [Field.activeEnergy: .number(Double.random(in: 0...2, using: &random))]
                                                            : [Field.steps: .number(Double(Int.random(in: 0...40, using: &random)))]
                messages.append(NewMessage(sdid: watch.id, ts: at(6 + Double(s) * step), data: data))
            }
            if messages.count >= 50_000 || back == 0 {
                try await store.postBatch(messages, userID: user.id, now: now)
                messages.removeAll(keepingCapacity: true)
            }
        }
    }
}
