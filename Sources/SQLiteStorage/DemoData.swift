import Foundation
import GRDB
import CheckedNumbers
import HealthCore
import HealthModel

/// A demo account to try hmon with: user `demo` / password `demo`, a complete profile, a Withings
/// scale with about six months of weigh-ins, an activity tracker, a food log and two HRV meters (about
/// three months of morning measurements: Welltory's, and the watch's computed from its beats as an Apple
/// Health import stores them, with the watch's own SDNN on the activity tracker) and as many nights of sleep
/// with their stages, and two weeks of the watch's vital signs (SpO2, breathing rate, wrist temperature, a
/// blood pressure every other morning, a body temperature twice a week), up to `now`.
///
/// Deterministic for a given seed, `now` and calendar (ids included; only the password salt is random),
/// so screenshots and tests can rely on it.
public enum DemoData {
    public static let userName = "demo"
    public static let password = "demo"
    public static let days = 180

    /// Opens the demo store at `url`, creating and filling it on first use, and on later days adding
    /// the readings since its last one, so the demo always has a today.
    public static func openStore(at url: URL, now: Date = Date(), calendar: Calendar = .current,
                                 passwordHasher: PasswordHasher = .strong,
                                 footprint: StoreFootprint = .standard) async throws -> LocalStore {
        let store = try LocalStore(url: url, passwordHasher: passwordHasher, footprint: footprint)
        if try await store.user(named: userName) == nil {
            try await fill(store, now: now, calendar: calendar)
        } else {
            try await topUp(store, now: now, calendar: calendar)
        }
        return store
    }

    /// Adds the demo readings that fall after the demo account's latest reading and up to `now`, on
    /// the same trend (the account's creation day fixes where the trend starts). Returns how many were added.
    @discardableResult
    public static func topUp(_ store: LocalStore, now: Date = Date(), calendar: Calendar = .current,
                             seed: UInt64 = 2026) async throws -> Int {
        guard let missing = try await missingReadings(store, now: now, calendar: calendar, seed: seed) else { return 0 }
        let (user, devices, fresh) = (missing.user, missing.devices, missing.readings)
        try await store.write { db in
            for reading in fresh {
                guard let device = devices[reading.device.name] else { continue }
                try MessageRecord(mid: reading.mid, sdid: device.id, sdtid: device.dtid, uid: user.id, ts: reading.ts,
                                  cts: reading.ts + 1500, mv: 1, fields: reading.data)
                    .insertUnlessStored(db)
            }
        }
        return fresh.count
    }

    /// The demo store at `url` opened only to read, when it is there with its schema up to date and has
    /// every demo reading up to `now` already; nil otherwise, and then `openStore` makes it or tops it up.
    ///
    /// For `hmon snapshot --demo`, which only reads: opening to write costs GRDB's pool a
    /// writer and a reader connection, a transaction it commits to make the WAL file exist and the checkpoint
    /// when it closes, five fsyncs in all: 5 ms of CPU and more by the clock at every launch.
    public static func openToRead(at url: URL, now: Date = Date(), calendar: Calendar = .current, seed: UInt64 = 2026,
                                  footprint: StoreFootprint = .standard) async -> LocalStore? {
        // Any refusal (no file, a schema to migrate, no demo account) is left to `openStore` to act on or report.
        guard FileManager.default.fileExists(atPath: url.path),
              let store = try? LocalStore(url: url, access: .readOnly, footprint: footprint) else { return nil }
        do {
            guard try await store.user(named: userName) != nil,
                  try await missingReadings(store, now: now, calendar: calendar, seed: seed) == nil else { return nil }
            return store
        } catch {
            return nil
        }
    }

    /// What `topUp` would add: nil when there is no demo account or nothing to add.
    private static func missingReadings(_ store: LocalStore, now: Date, calendar: Calendar,
                                        seed: UInt64) async throws -> (user: User, devices: [String: Device], readings: [DemoPlan.Reading])? {
        guard let user = try await store.user(named: userName) else { return nil }
        let latest = try await store.read { db in
            try Int64.fetchOne(db, sql: "SELECT max(ts) FROM messages WHERE uid = ?", arguments: [StoredID(user.id)])
        } ?? Int64.min
        guard latest < now.millisecondsSince1970 else { return nil }
        let today = Day(now, in: calendar)
        var random = SeededRandom(seed: seed)
        let firstDay = Day(user.createdOn, in: calendar).adding(days: 1)
        guard firstDay <= today else { return nil }
        // Plan only from the latest reading's day: this runs at every `hmon --demo` launch, and planning
        // the whole six months again cost more than the rest of the launch.
        let from = latest == Int64.min ? firstDay : max(firstDay, Day(Date(millisecondsSince1970: latest), in: calendar))
        let plan = DemoPlan(random: &random, seed: seed, firstDay: firstDay, from: from, ownStreamsFrom: from, today: today,
                            now: now, calendar: calendar, created: user.createdOn)
        let devices = Dictionary(try await store.devices(userID: user.id).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let fresh = plan.readings.filter { $0.ts > latest && devices[$0.device.name] != nil }
        return fresh.isEmpty ? nil : (user, devices, fresh)
    }

    /// Adds the demo account and its readings to `store`. Throws `.nameTaken` when it already has a `demo` user.
    public static func fill(_ store: LocalStore, now: Date = Date(), calendar: Calendar = .current, seed: UInt64 = 2026) async throws {
        if try await store.user(named: userName) != nil { throw HealthError.nameTaken(userName) }
        var random = SeededRandom(seed: seed)
        let today = Day(now, in: calendar)
        let firstDay = today.adding(days: -(days - 1))
        let created = firstDay.adding(days: -1).start(in: calendar).addingTimeInterval(20 * 3600)
        let plan = DemoPlan(random: &random, seed: seed, firstDay: firstDay, from: firstDay, ownStreamsFrom: today, today: today,
                            now: now, calendar: calendar, created: created)
        let hash = try store.passwordHasher.hash(password)

        try await store.write { db in
            try db.execute(
                sql: """
                    INSERT INTO users (id, key, name, name_key, name_skeleton, full_name, email, password_hash, created_at, modified_at)
                    VALUES (?, ?, ?, ?, ?, 'Demo User', 'demo@example.com', ?, ?, ?)
                    """,
                arguments: [plan.userID, StoredID(plan.userID), userName, UserNames.key(userName), UserNames.skeleton(userName), hash,
                            created.millisecondsSince1970, created.millisecondsSince1970])
            try db.execute(
                sql: "INSERT INTO profiles (user_id, birth_date, sex, height_cm, goal_kg) VALUES (?, '1988-04-12', 'female', 168, 66)",
                arguments: [plan.userID])
            for device in plan.devices {
                try LocalStore.insertDevice(id: device.id, uid: plan.userID, dtid: device.dtid, name: device.name,
                                            manifestVersion: 1, createdAt: created.millisecondsSince1970, in: db)
            }
            for reading in plan.readings {
                try MessageRecord(mid: reading.mid, sdid: reading.device.id, sdtid: reading.device.dtid, uid: plan.userID,
                                  ts: reading.ts, cts: reading.ts + 1500, mv: 1, fields: reading.data)
                    .insert(db)
            }
        }
    }
}

/// The demo account's devices and readings, drawn from a seeded generator.
private struct DemoPlan {
    struct PlannedDevice {
        var id: String
        var dtid: String
        var name: String
    }

    struct Reading {
        var mid: String
        var device: PlannedDevice
        var ts: Int64
        var data: [String: FieldValue]
    }

    let userID: String
    let devices: [PlannedDevice]
    var readings: [Reading] = []

    /// Readings from `from` to `today` (up to `now`), on a trend that starts at `firstDay`.
    ///
    /// Days before `ownStreamsFrom` draw from `random` in turn (the history a first launch makes); that day
    /// and every later one from a stream of its own, seeded by `seed` and the day alone, so a launch later
    /// the same day (or a top-up days on) plans today exactly as the first launch did and adds only what
    /// has happened since, never a second lunch.
    init(random: inout SeededRandom, seed: UInt64, firstDay: Day, from: Day, ownStreamsFrom: Day, today: Day, now: Date,
         calendar: Calendar, created: Date) {
        userID = random.hex()
        let scale = PlannedDevice(id: random.hex(), dtid: BuiltInDeviceType.withings.deviceType.id, name: "Bathroom scale")
        let watch = PlannedDevice(id: random.hex(), dtid: BuiltInDeviceType.activityTracker.deviceType.id, name: "Watch")
        let food = PlannedDevice(id: random.hex(), dtid: BuiltInDeviceType.calorieTracker.deviceType.id, name: "Food log")
        // The HRV meter and its measurements draw from their own streams, so adding them left every
        // other demo reading (and every other screen's reference frame) as it was.
        var hrvIDs = SeededRandom(seed: 0x4852_5600)
        let hrv = PlannedDevice(id: hrvIDs.hex(), dtid: BuiltInDeviceType.hrvMeter.deviceType.id, name: "Welltory")
        // Named as `hmon import` names the meter of a source that already has an activity tracker.
        let watchHRV = PlannedDevice(id: hrvIDs.hex(), dtid: BuiltInDeviceType.hrvMeter.deviceType.id, name: "Watch (HRV Meter)")
        devices = [scale, watch, food, hrv, watchHRV]

        // The trend spans the demo's first `days` days and then holds, so readings added on later
        // days (see `DemoData.topUp`) continue it.
        let total = Double(DemoData.days - 1)
        var day = from
        var shared = random
        while day <= today {
            var random = day < ownStreamsFrom ? shared : SeededRandom(seed: Self.daySeed(seed, day))
            let start = day.start(in: calendar)
            func at(_ hour: Double) -> Date { start.addingTimeInterval(hour * 3600) }
            func add(_ device: PlannedDevice, _ time: Date, _ data: [String: FieldValue], random: inout SeededRandom) {
                // The id is drawn whether or not the reading is due yet, so what follows does not depend on `now`.
                let mid = random.hex()
                guard time <= now else { return }
                readings.append(Reading(mid: mid, device: device, ts: time.millisecondsSince1970, data: data))
            }
            let progress = min(1, Double(firstDay.days(to: day)) / total)
            let weekday = calendar.component(.weekday, from: start)  // 1 = Sunday
            let weekend = weekday == 1 || weekday == 7

            // Weigh-ins: a slow loss from 74 to about 69.5 kg that levels off, day-to-day noise,
            // a little more after weekends; some days skipped, some weighed twice.
            let trend = 74.0 - 4.6 * (1 - pow(1 - progress, 1.6))
            let mondayBump = weekday == 2 ? 0.35 : 0
            if random.unit() > 0.13 {
                let kg = trend + mondayBump + random.normal() * 0.3
                let morning = at(6.5 + random.unit() * 1.5)
                add(scale, morning, [Field.weight: .number(round1(kg)), ReadingKind.bodyFat.field: .number(round1(29 - 3 * progress + random.normal() * 0.4)),
                                     Field.heartRate: .number(Double(Int(rounding: 62 + random.normal() * 4, .towardZero)))], random: &random)
                if random.unit() < 0.1 {
                    add(scale, at(21 + random.unit()), [Field.weight: .number(round1(kg + 0.5 + random.normal() * 0.2))], random: &random)
                }
            }

            // The watch: hourly active energy and steps while awake, a workout on some days.
            let workoutHour = random.unit() < (weekend ? 0.5 : 0.3) ? 7 + Int(rounding: random.unit() * 12, .towardZero) : -1
            for hour in 7...22 {
                let workout = hour == workoutHour
                let active = workout ? 250 + random.unit() * 200 : 8 + random.unit() * 35
                let steps = workout ? 4000 + random.unit() * 3000 : random.unit() * 900
                add(watch, at(Double(hour) + 0.98), [Field.activeEnergy: .number(round1(active)),
                                                     Field.steps: .number(steps.rounded())], random: &random)
            }

            // The food log: three meals and sometimes a snack.
            let meals: [(hour: Double, low: Double, high: Double, names: [String])] = [
                (7.75, 300, 500, ["porridge with berries", "toast and eggs", "yoghurt and granola"]),
                (12.5, 550, 800, ["lentil soup and bread", "chicken salad", "pasta with pesto", "sushi"]),
                (16, 120, 300, ["apple and nuts", "a cappuccino and a biscuit", "banana"]),
                (19.25, 550, 900, ["salmon, rice and greens", "vegetable curry", "pizza", "stir-fried tofu"]),
            ]
            for meal in meals where meal.hour != 16 || random.unit() < 0.5 {
                let kcal = (meal.low + random.unit() * (meal.high - meal.low)).rounded()
                let name = meal.names[Int(rounding: random.unit() * Double(meal.names.count), .towardZero) % meal.names.count]
                add(food, at(meal.hour + random.unit() * 0.5), [Field.calories: .number(kcal), Field.comments: .text(name)],
                    random: &random)
            }
            if let measurement = Self.hrvMeasurement(on: day, today: today, trainingDay: workoutHour >= 0, at: at) {
                var own = SeededRandom(seed: 0x4852_5601 &+ UInt64(truncatingIfNeeded: Day(year: 2000, month: 1, day: 1).days(to: day)))
                if let appleSDNN = measurement.data[Field.appleSDNN] {
                    add(watchHRV, measurement.time, measurement.data, random: &own)
                    // The record the beats came in: Apple's SDNN, kept on the watch as the import keeps it.
                    add(watch, measurement.time, [Field.heartRateVariabilitySDNN: appleSDNN], random: &own)
                } else {
                    add(hrv, measurement.time, measurement.data, random: &own)
                }
            }
            if let night = Self.night(endingOn: day, today: today, at: at) {
                var own = SeededRandom(seed: 0x534C_4550 &+ UInt64(truncatingIfNeeded: Day(year: 2000, month: 1, day: 1).days(to: day)))
                add(watch, night.time, night.data, random: &own)
            }
            for vital in Self.vitals(on: day, today: today, at: at) {
                var own = SeededRandom(seed: 0x5649_5441 &+ UInt64(truncatingIfNeeded: Day(year: 2000, month: 1, day: 1).days(to: day)) &* 8
                                       &+ UInt64(vital.slot))
                add(watch, vital.time, vital.data, random: &own)
            }
            if day < ownStreamsFrom { shared = random }
            day = day.adding(days: 1)
        }
        random = shared
    }

    /// The seed of `day`'s own stream: the demo's seed and the day's number, nothing else.
    static func daySeed(_ seed: UInt64, _ day: Day) -> UInt64 {
        seed &+ UInt64(truncatingIfNeeded: Day(year: 2000, month: 1, day: 1).days(to: day))
    }

    /// A morning HRV measurement on most of the last 100 days: on some days Welltory's (scores, colours,
    /// a share token), on others computed from the watch's beats, with Apple's SDNN beside them. Its own
    /// stream per day keeps it stable. One morning of the last ten without a measurement has the watch's
    /// record with a flat beat list instead, refused: Apple's SDNN alone and the reason.
    ///
    /// HRV is higher on the mornings of the days with a workout, as for someone who trains when rested:
    /// the demo's one genuine finding between two attributes measured apart (its stress is computed from
    /// the same measurement's HRV, so that pair is never tested).
    private static func hrvMeasurement(on day: Day, today: Day, trainingDay: Bool,
                                       at: (Double) -> Date) -> (time: Date, data: [String: FieldValue])? {
        guard day.days(to: today) < 100 else { return nil }
        var random = SeededRandom(seed: 0x4852_5602 &+ UInt64(truncatingIfNeeded: Day(year: 2000, month: 1, day: 1).days(to: day)))
        guard random.unit() < 0.85 else {
            guard day.days(to: today) < 10 else { return nil }
            return (at(7.05), [Field.appleSDNN: .number(38.6), Field.beatsRefused: .text("no variability")])
        }
        // ln RMSSD around ln 48 ms, lower for a hard fortnight five weeks ago, noisy from day to day.
        let age = day.days(to: today)
        let strain = (28...41).contains(age) ? -0.25 : 0
        let rested = trainingDay ? 0.15 : 0
        let rmssd = exp(log(48) + strain + rested + random.normal() * 0.13)
        let sdnn = rmssd * (1.05 + random.unit() * 0.25)
        let heartRate = (58 - (rmssd - 48) * 0.2 + random.normal() * 2).rounded()
        let round1 = { (x: Double) in (x * 10).rounded() / 10 }
        let round2 = { (x: Double) in (x * 100).rounded() / 100 }
        var data: [String: FieldValue] = [Field.rmssd: .number(round1(rmssd)), Field.sdnn: .number(round1(sdnn)),
                                          Field.heartRate: .number(heartRate)]
        if random.unit() < 0.6 {
            let stress = min(0.95, max(0.05, 0.9 - rmssd / 80 + random.normal() * 0.05))
            let energy = min(0.95, max(0.05, 1 - stress + random.normal() * 0.08))
            let productivity = min(0.95, max(0.05, (energy + 1 - stress) / 2 + random.normal() * 0.08))
            func color(_ goodness: Double) -> String { goodness >= 0.6 ? "green" : goodness >= 0.4 ? "yellow" : "red" }
            data[Field.stress] = .number(round2(stress))
            data[Field.energy] = .number(round2(energy))
            data[Field.productivity] = .number(round2(productivity))
            data[Field.totalPower] = .number((sdnn * sdnn * (0.9 + random.unit() * 0.3)).rounded())
            data[Field.stressColor] = .text(color(1 - stress))
            data[Field.energyColor] = .text(color(energy))
            data[Field.productivityColor] = .text(color(productivity))
            data[Field.shareToken] = .text(String(random.hex().prefix(20)))
            data[Field.source] = .text(HRVSource.welltory.rawValue)
        } else {
            data[Field.pnn50] = .number(round1(min(60, max(1, rmssd * 0.55 - 8 + random.normal() * 3))))
            data[Field.source] = .text(HRVSource.beats.rawValue)
            data[Field.appleSDNN] = .number(round1(round1(sdnn) * 1.04))
            data[Field.stressIndex] = .number(round1(max(20, 150 - rmssd * 1.5 + random.normal() * 10)))
        }
        return (at(6.75 + random.unit() * 0.75), data)
    }

    /// The watch's vital signs of `day`, in the last 14 days, from a stream of their own (so every other
    /// demo reading is as it was): the night's SpO2, breathing rate and wrist temperature change, as a
    /// watch sends them each morning; a blood pressure with its pulse every other morning, around the
    /// line between normal and elevated with a stage 1 now and then; a body temperature twice a week.
    /// `slot` tells the readings of one day apart, for their ids' streams.
    private static func vitals(on day: Day, today: Day, at: (Double) -> Date) -> [(slot: Int, time: Date, data: [String: FieldValue])] {
        let age = day.days(to: today)
        guard age < 14 else { return [] }
        let round1 = { (x: Double) in (x * 10).rounded() / 10 }, round2 = { (x: Double) in (x * 100).rounded() / 100 }
        let dayNumber = Day(year: 2000, month: 1, day: 1).days(to: day)
        var random = SeededRandom(seed: 0x5649_5440 &+ UInt64(truncatingIfNeeded: dayNumber))
        let woke = 6.3 + random.unit() * 0.3
        var readings: [(slot: Int, time: Date, data: [String: FieldValue])] = [
            (0, at(woke), [ReadingKind.oxygenSaturation.field: .number(round1(96.6 + random.normal() * 0.7))]),
            (1, at(woke + 0.01), [ReadingKind.respiratoryRate.field: .number(round1(14.6 + random.normal() * 0.5))]),
            (2, at(woke + 0.02), [ReadingKind.skinTemperatureChange.field: .number(round2(random.normal() * 0.25))]),
        ]
        // Every other day by the calendar, not by the distance from today: a later launch plans a day as the first did.
        if dayNumber % 2 == 0 {
            let systolic = (123 + random.normal() * 5).rounded(), diastolic = (78 + random.normal() * 3).rounded()
            readings.append((3, at(7.6 + random.unit() * 0.3), [ReadingKind.bloodPressureSystolic.field: .number(systolic),
                                                                ReadingKind.bloodPressureDiastolic.field: .number(diastolic),
                                                                Field.heartRate: .number((63 + random.normal() * 4).rounded())]))
        }
        if day.weekdayIndex == 0 || day.weekdayIndex == 3 {
            readings.append((4, at(8 + random.unit()), [ReadingKind.bodyTemperature.field: .number(round1(36.7 + random.normal() * 0.2))]))
        }
        return readings
    }

    /// The night that ends on the morning of `day`, as an import keeps it (one reading on the watch, stamped
    /// when the night ended, its stages beside time asleep), on every day of the last 100, from a stream of
    /// its own. Shorter in the same hard fortnight that lowers the HRV, a little longer at weekends, and
    /// longer before the mornings whose HRV is higher: the morning's measurement's own draw is replayed
    /// from its stream (`hrvMeasurement`), so the demo's HRV is as it was and sleep follows it, the demo's
    /// finding of sleep against the next morning's HRV.
    private static func night(endingOn day: Day, today: Day, at: (Double) -> Date) -> (time: Date, data: [String: FieldValue])? {
        let age = day.days(to: today)
        guard age < 100 else { return nil }
        let dayNumber = UInt64(truncatingIfNeeded: Day(year: 2000, month: 1, day: 1).days(to: day))
        var random = SeededRandom(seed: 0x534C_4551 &+ dayNumber)
        var morning = SeededRandom(seed: 0x4852_5602 &+ dayNumber)
        let rested = morning.unit() < 0.85 ? morning.normal() : 0
        let strain = (28...41).contains(age) ? -45.0 : 0
        let weekend = day.weekdayIndex >= 5 ? 25.0 : 0
        let asleep = (430 + strain + weekend + rested * 25 + random.normal() * 18).rounded()
        let deep = (asleep * (0.15 + random.normal() * 0.02)).rounded()
        let rem = (asleep * (0.22 + random.normal() * 0.025)).rounded()
        let awake = (12 + random.unit() * 20).rounded()
        let inBed = asleep + awake + (8 + random.unit() * 15).rounded()
        let data: [String: FieldValue] = [
            ReadingKind.sleep.field: .number(asleep), ReadingKind.timeInBed.field: .number(inBed),
            ReadingKind.deepSleep.field: .number(deep), ReadingKind.remSleep.field: .number(rem),
            ReadingKind.coreSleep.field: .number(asleep - deep - rem), ReadingKind.sleepAwake.field: .number(awake),
            Field.sleepWindowMinutes: .number(inBed),
            Field.hypnogram: .text(Self.stages(inBed: Int(inBed), asleep: Int(asleep), deep: Int(deep), rem: Int(rem), awake: Int(awake)).text),
        ]
        return (at(6.2 + random.unit() * 0.4), data)
    }

    /// A night's stages against the clock from its minutes, as a watch draws them: in bed until asleep, then
    /// cycles of about 90 minutes (core, deep, core, REM, a few minutes awake), deep sleep early in the night
    /// and REM late, every figure's minutes exactly.
    static func stages(inBed: Int, asleep: Int, deep: Int, rem: Int, awake: Int) -> Hypnogram {
        let cycles = max(3, Int((Double(asleep) / 90).rounded()))
        let deepWeights = (0..<cycles).map { Double(cycles - $0) }, remWeights = (0..<cycles).map { Double($0 + 1) }
        func shares(_ total: Int, _ weights: [Double]) -> [Int] {
            let sum = weights.reduce(0, +)
            var parts = weights.map { Int((Double(total) * $0 / sum).rounded(.down)) }
            parts[0] += total - parts.reduce(0, +)
            return parts
        }
        let deeps = shares(deep, deepWeights), rems = shares(rem, remWeights)
        let wakes = shares(awake, Array(repeating: 1, count: cycles))
        let cores = shares(max(0, asleep - deep - rem), Array(repeating: 1, count: cycles))
        var minutes: [SleepStage?] = Array(repeating: .inBed, count: max(0, inBed - asleep - awake))
        for cycle in 0..<cycles {
            let firstCore = cores[cycle] / 2
            minutes += Array(repeating: .core, count: firstCore) + Array(repeating: .deep, count: deeps[cycle])
                + Array(repeating: .core, count: cores[cycle] - firstCore) + Array(repeating: .rem, count: rems[cycle])
                + Array(repeating: .awake, count: wakes[cycle])
        }
        return Hypnogram(startMs: 0, minutes: Array(minutes.prefix(Hypnogram.longestMinutes)))
    }

    private func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
}

