import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// The Health Auto Export reader on its own: the app's JSON (its documented format,
/// https://github.com/Lybron/health-auto-export/wiki/API-Export---JSON-Format) read as the readings
/// `hmon import` makes of the same Apple Health samples.
@Suite struct HealthAutoExportReadingTests {
    @Test func aPointBecomesTheReadingTheExportsRecordBecomes() throws {
        let folder = try TempFolder()
        let pushed = try folder.write("push.json", """
            {"data": {"metrics": [{"name": "weight_body_mass", "units": "lb",
              "data": [{"qty": 160.2, "date": "2026-11-20 07:10:03 +0100", "source": "Withings"}]}], "workouts": []}}
            """)
        let export = try folder.write("export.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData><Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Withings" unit="lb" startDate="2026-11-20 07:10:03 +0100" value="160.2"/></HealthData>
            """)
        let (result, fromPush) = try readAll(pushed)
        let (_, fromExport) = try readAll(export)
        #expect(result.format == .healthAutoExportJSON)
        #expect(fromPush == fromExport)
        #expect(fromPush.first?.timestamp == ms("2026-11-20T06:10:03Z"))
    }

    @Test func keysInAnyOrderEscapesAndNestedValuesAreRead() throws {
        let folder = try TempFolder()
        // `data` before `name` and `units`, an escaped source, a nested object in a point, and a skipped metric.
        let file = try folder.write("push.json", #"""
            {"data": {"workouts": [{"name": "Walking", "route": [{"lat": 1}]}], "metrics": [
              {"data": [{"meta": {"x": [1, 2]}, "date": "2026-11-20 08:00:00 +0000", "qty": 3e1, "source": "Jo\u2019s \"iPhone\""}],
               "units": "count", "name": "step_count"},
              {"name": "blood_glucose", "units": "mg/dL", "data": [{"date": "2026-11-20 08:00:00 +0000", "qty": 94}]}
            ]}}
            """#)
        let (result, readings) = try readAll(file)
        #expect(readings == [ImportedReading(kind: .steps, source: "Jo’s \"iPhone\"", timestamp: ms("2026-11-20T08:00:00Z"), value: 30)])
        #expect(result.tally.skippedKinds == ["blood_glucose": 1])
    }

    @Test func malformedTextIsNamedByItsPath() throws {
        let folder = try TempFolder()
        let cases: [(String, String)] = [
            (#"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"qty": 1, "date": "2026-11-20 08:00:00", "source": "a"}]}]}}"#,
             #"data.metrics[0].data[0].date: "2026-11-20 08:00:00" is not yyyy-MM-dd HH:mm:ss Z"#),
            (#"{"data": {"metrics": {"name": "x"}}}"#, "data.metrics: must be an array of metrics"),
            (#"{"data": {"metrics": [{"name": "step_count", "data": [{"qty": 1,, }]}]}}"#, "data.metrics[0].data[0]"),
            (#"{"metrics": []}"#, #"body: has no "data" object"#),
            (#"{"data": {"metrics": []}} x"#, "more after the JSON text's end"),
            (#"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"qty": 01, "date": "x"}]}]}}"#, "is not a JSON number"),
        ]
        for (text, expected) in cases {
            let failure = importFailure(try folder.write("push.json", text))
            #expect(failure?.contains(expected) == true, "\(text) → \(failure ?? "no failure")")
        }
    }
}
