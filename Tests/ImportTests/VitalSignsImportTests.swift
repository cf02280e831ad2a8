import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// Vital signs in an Apple Health export, as Apple writes them: a blood pressure as a correlation of two
/// quantity samples (kept as one reading), SpO2 as a fraction with the unit "%", a temperature in °F.
@Suite struct VitalSignsImportTests {
    static let export = AppleHealthXML.document(me: AppleHealthReadingTests.me, [
        """
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" sourceVersion="7.3" creationDate="2024-01-03 07:41:00 +0100" startDate="2024-01-03 07:40:00 +0100" endDate="2024-01-03 07:40:00 +0100">
        \(AppleHealthXML.record("BloodPressureDiastolic", "82", unit: "mmHg", at: "2024-01-03 07:40:00 +0100", source: "Omron"))
        \(AppleHealthXML.record("BloodPressureSystolic", "128", unit: "mmHg", at: "2024-01-03 07:40:00 +0100", source: "Omron"))
         </Correlation>
        """,
        AppleHealthXML.record("BloodPressureSystolic", "141", unit: "mmHg", at: "2024-01-04 07:40:00 +0100", source: "Health"),
        AppleHealthXML.record("OxygenSaturation", "0.97", unit: "%", at: "2024-01-03 03:10:00 +0100"),
        AppleHealthXML.record("RespiratoryRate", "14.5", unit: "count/min", at: "2024-01-03 03:10:00 +0100"),
        AppleHealthXML.record("BodyTemperature", "98.6", unit: "degF", at: "2024-01-03 07:00:00 +0100", source: "Kinsa"),
        AppleHealthXML.record("BodyTemperature", "36.9", unit: "degC", at: "2024-01-04 07:00:00 +0100", source: "Kinsa"),
    ].joined(separator: "\n"))

    @Test func eachVitalSignIsKeptInHmonsUnitAndABloodPressureIsOneReading() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try folder.write("export.xml", Self.export))
        let pressures = readings.filter { $0.kind == .bloodPressureSystolic }
        #expect(pressures.map(\.value) == [128, 141])
        #expect(pressures.map { $0.extras[Field.diastolic] } == [82, nil], "the pair is one reading; a lone systolic typed by hand stays alone")
        #expect(readings.filter { $0.kind == .oxygenSaturation }.map(\.value) == [97])
        #expect(readings.filter { $0.kind == .respiratoryRate }.map(\.value) == [14.5])
        // (98.6 − 32) × 5 / 9 = 37.0 °C.
        #expect(readings.filter { $0.kind == .bodyTemperature }.map { ($0.value * 100).rounded() / 100 } == [37, 36.9])
        #expect(result.tally.kept[.bloodPressureSystolic] == 2)
        #expect(result.tally.kept[.bloodPressureDiastolic] == nil)
    }
}
