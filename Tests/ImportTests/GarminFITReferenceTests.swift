import Foundation
import TestSupport
import Testing
@testable import HealthFormats

/// hmon's FIT decoder against Garmin's own (garmin-fit-sdk, in the third-party clients' Python environment)
/// on every fixture: the same messages, field for field, on the fields hmon reads, with the profile's scales.
@Suite(.heavy, .enabled(if: GarminSDK.python != nil, Comment(rawValue: GarminSDK.missing)))
struct GarminFITReferenceTests {
    /// The fields compared: the SDK's name for each, hmon's field number and the profile's scale.
    static let compared: [String: (message: UInt16, fields: [(name: String, number: UInt8, scale: Double)])] = [
        "file_id_mesgs": (0, [("type", 0, 1), ("manufacturer", 1, 1), ("product", 2, 1), ("serial_number", 3, 1)]),
        "weight_scale_mesgs": (30, [("timestamp", 253, 1), ("weight", 0, 100), ("percent_fat", 1, 100), ("percent_hydration", 2, 100),
                                    ("bone_mass", 4, 100), ("muscle_mass", 5, 100)]),
        "blood_pressure_mesgs": (51, [("timestamp", 253, 1), ("systolic_pressure", 0, 1), ("diastolic_pressure", 1, 1), ("heart_rate", 6, 1)]),
        "hrv_status_summary_mesgs": (370, [("timestamp", 253, 1), ("last_night_average", 1, 128)]),
        "sleep_level_mesgs": (275, [("timestamp", 253, 1), ("sleep_level", 0, 1)]),
        "event_mesgs": (21, [("timestamp", 253, 1), ("event", 0, 1), ("event_type", 1, 1)]),
        "monitoring_info_mesgs": (103, [("timestamp", 253, 1), ("local_timestamp", 0, 1)]),
        "monitoring_mesgs": (55, [("timestamp", 253, 1), ("timestamp_16", 26, 1), ("cycles", 3, 2), ("activity_type", 5, 1),
                                  ("active_calories", 19, 1), ("heart_rate", 27, 1)]),
        "monitoring_hr_data_mesgs": (211, [("timestamp", 253, 1), ("resting_heart_rate", 0, 1), ("current_day_resting_heart_rate", 1, 1)]),
    ]

    @Test func everyFixtureDecodesAsGarminsSDKDecodesIt() async throws {
        let python = try #require(GarminSDK.python)
        let folders = [GarminFITImportTests.fixture, GarminFITImportTests.laterFixture]
        let paths = folders.flatMap { folder in
            DownloadFile.files(in: folder).filter(GarminFIT.isFITFile).map { folder.appendingPathComponent($0.path).path }
        }
        #expect(paths.count == 7)
        let script = GarminSDK.root.appendingPathComponent("Tests/ReferenceScripts/garmin_fit_reference.py").path
        let run = try await SpawnedProcess.running(python, [script] + paths)
        #expect(run.status == 0, "garmin_fit_reference.py: \(run.errors)")
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: [String: [[String: Any]]]])

        for path in paths {
            let theirs = try #require(reference[path], "no answer for \(path)")
            let ours = try FITDecoder.messages([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            for (key, layout) in Self.compared {
                let expected = (theirs[key] ?? []).map { message in
                    message.compactMapValues { ($0 as? Double) ?? ($0 as? Int).map { Double($0) } }
                }
                let decoded = ours.filter { $0.global == layout.message }.map { message in
                    var fields: [String: Double] = [:]
                    for field in layout.fields {
                        if field.number == 253 {
                            fields[field.name] = message.time().map { Double($0 / 1000) }
                        } else {
                            fields[field.name] = message.value(field.number, scale: field.scale)
                        }
                    }
                    return fields
                }
                #expect(decoded == expected, "\(key) of \((path as NSString).lastPathComponent)")
            }
        }
    }
}

/// Where Garmin's FIT SDK is: the third-party clients' Python environment (`Tests/ThirdPartyClients/install.sh`).
enum GarminSDK {
    /// The package's root: this file is `Tests/ImportTests/GarminFITReferenceTests.swift` in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let installed = root.appendingPathComponent(".build/third-party-clients/bin/python")
    static let given = ProcessInfo.processInfo.environment["HMON_THIRD_PARTY_PYTHON"]

    /// The environment's python: `HMON_THIRD_PARTY_PYTHON`, else the one install.sh makes by default.
    static let python: URL? = {
        let candidate = given.map { URL(fileURLWithPath: $0) } ?? installed
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    static var missing: String {
        let looked = given.map { "HMON_THIRD_PARTY_PYTHON=\($0) is not an executable" } ?? "no \(installed.path)"
        return "Garmin's FIT SDK is not installed (\(looked)): run Tests/ThirdPartyClients/install.sh"
    }
}
