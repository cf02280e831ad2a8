import CheckedNumbers
import Foundation
import GRDB
import TestSupport
import Testing
@testable import HealthCore
@testable import HealthModel

/// Issue 29, case 1, on the command line and the screens: a number planted before today's ranges (an
/// older hmon, a copy, another program) must not trap anywhere it is shown or computed with.
@Suite struct StoredExtremesCommandLineTests {
    /// Reference cases for the one conversion (IEEE 754 rounding; `Int.max` is 2^63 − 1).
    @Test func theCheckedConversionRoundsAndHoldsAtTheBounds() {
        #expect(Int(rounding: 72.5) == 73)
        #expect(Int(rounding: -72.5) == -73)
        #expect(Int(rounding: 7.9, .down) == 7)
        #expect(Int(rounding: 7.1, .up) == 8)
        #expect(Int(rounding: 1e300) == .max)
        #expect(Int(rounding: -1e300) == .min)
        #expect(Int(rounding: .infinity) == .max)
        #expect(Int(rounding: -.infinity) == .min)
        #expect(Int(rounding: .nan) == 0)
        #expect(Int(rounding: 0x1p63) == .max, "2^63 itself is one past Int.max")
        #expect(Int(rounding: -0x1p63) == .min, "-2^63 is Int.min exactly")
        #expect(UInt8(rounding: -3) == 0)
        #expect(UInt8(rounding: 255.4) == 255)
        #expect(Int64(rounding: 1e18) == 1_000_000_000_000_000_000)
    }

    @Test func everyCommandAndScreenSurvivesAnExtremeAlreadyStored() async throws {
        let home = try CommandLineTests.Home()
        try await home.userWithScale()
        let store = try home.store()
        let alice = try #require(try await store.user(named: "alice"))
        let watch = try await store.addDevice(name: "Watch", typeID: BuiltInDeviceType.activityTracker.deviceType.id, userID: alice.id)
        let scale = try #require(try await store.devices(userID: alice.id).first { $0.name == "Bathroom scale" })
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await store.writer.write { db in
            for (device, back, json, weight, active) in [
                (watch, 86_400_000 as Int64, #"{"steps":1e300,"restingHeartRate":1e300,"activeEnergy":1e300}"#, nil as Double?, 1e300 as Double?),
                (scale, 90_000_000, #"{"weight":1e300,"fatRatio":-1e300}"#, 1e300, nil),
                (scale, 2 * 86_400_000, #"{"weight":70.5}"#, 70.5, nil),
            ] {
                try db.execute(sql: """
                    INSERT INTO messages (mid, sdid, sdtid, uid, ts, cts, mv, data, weight, active_energy)
                    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
                    """, arguments: [UUID().uuidString, Data(BinaryID.encode(device.id)), Data(BinaryID.encode(device.dtid)),
                                     Data(BinaryID.encode(alice.id)), now - back, now - back, json, weight, active])
            }
        }
        let commands: [[String]] = [
            ["insights"], ["insights", "--json"], ["trend"], ["reading", "list"], ["device", "list"],
        ] + ["devices", "weights", "energy", "hrv", "insights"].map { ["snapshot", "--screen", $0, "--user", "alice"] }
        for command in commands {
            let run = try await home.hmon(command + (command[0] == "snapshot" ? [] : ["--user", "alice"]))
            // A trap ended the process with SIGILL (status 132, as a shell reports it).
            #expect(run.status == 0, "\(command): \(run.status) \(run.stderr)")
            #expect(!run.stderr.contains("Fatal error"), "\(command): \(run.stderr)")
        }
    }
}
