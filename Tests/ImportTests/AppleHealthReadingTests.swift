import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// Reading Apple Health exports: what is kept, in which units, and what is skipped.
@Suite struct AppleHealthReadingTests {
    static let me = """
     <Me HKCharacteristicTypeIdentifierDateOfBirth="1984-07-09" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet"/>
    """

    static let mixedExport = AppleHealthXML.document(me: me, [
        AppleHealthXML.record("BodyMass", "72.4", unit: "kg", at: "2024-01-02 07:15:00 +0100", source: "Withings"),
        AppleHealthXML.record("BodyMass", "160", unit: "lb", at: "2024-01-03 07:15:00 -0800", source: "J&#xF6;rg&apos;s iPhone"),
        AppleHealthXML.record("StepCount", "1200", unit: "count", at: "2024-01-03 09:00:00 +0100"),
        AppleHealthXML.record("StepCount", "800", unit: "count", at: "2024-01-03 10:00:00 +0100"),
        AppleHealthXML.record("HeartRate", "64", unit: "count/min", at: "2024-01-03 10:00:00 +0100"),
        AppleHealthXML.record("RestingHeartRate", "52", unit: "count/min", at: "2024-01-03 00:00:00 +0100"),
        AppleHealthXML.record("BodyFatPercentage", "0.235", unit: "%", at: "2024-01-02 07:15:00 +0100", source: "Withings"),
        AppleHealthXML.record("LeanBodyMass", "121.3", unit: "lb", at: "2024-01-02 07:15:00 +0100", source: "Withings"),
        AppleHealthXML.record("DietaryEnergyConsumed", "650", unit: "Cal", at: "2024-01-03 12:30:00 +0100", source: "MyFitnessPal",
                              children: "  <MetadataEntry key=\"meal\" value=\"Lunch &amp; dessert\"/>"),
        AppleHealthXML.record("DietaryEnergyConsumed", "2092", unit: "kJ", at: "2024-01-03 19:00:00 +0100", source: "MyFitnessPal"),
        AppleHealthXML.record("ActiveEnergyBurned", "0.512", unit: "kcal", at: "2024-01-03 09:01:00 +0100"),
        AppleHealthXML.record("BasalEnergyBurned", "1.1", unit: "kcal", at: "2024-01-03 09:01:00 +0100"),
        AppleHealthXML.record("HeartRateVariabilitySDNN", "43.2", unit: "ms", at: "2024-01-03 03:10:00 +0100", children: """
          <HeartRateVariabilityMetadataList>
           <InstantaneousBeatsPerMinute bpm="72" time="3:10:01.63 AM"/>
           <InstantaneousBeatsPerMinute bpm="70" time="3:10:02.50 AM"/>
          </HeartRateVariabilityMetadataList>
        """),
        AppleHealthXML.record("Height", "5.75", unit: "ft", at: "2023-06-01 10:00:00 +0100", source: "Health"),
        AppleHealthXML.record("Height", "170", unit: "cm", at: "2022-06-01 10:00:00 +0100", source: "Health"),
        """
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30.5" durationUnit="min" sourceName="Apple Watch" startDate="2024-01-03 18:00:00 +0100" endDate="2024-01-03 18:30:00 +0100">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-01-03 18:00:00 +0100" duration="10" durationUnit="min"/>
          <!-- a comment with <Record type="HKQuantityTypeIdentifierBodyMass" value="1"/> inside -->
         </Workout>
         <ActivitySummary dateComponents="2024-01-03" activeEnergyBurned="512" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal"/>
        """,
    ].joined(separator: "\n"))

    @Test func keepsWeightsEnergyHeightAndHRVInHmonUnits() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try folder.write("export.xml", Self.mixedExport))

        #expect(result.format == .appleHealthXML)
        let weights = readings.filter { $0.kind == .weight }
        #expect(weights.map(\.source) == ["Withings", "Jörg's iPhone"])
        #expect(weights.map(\.timestamp) == [ms("2024-01-02T06:15:00Z"), ms("2024-01-03T15:15:00Z")])
        #expect(weights[0].value == 72.4)
        #expect(abs(weights[1].value - 72.57477920) < 1e-6)

        let eaten = readings.filter { $0.kind == .dietaryEnergy }.map(\.value)
        #expect(eaten.count == 2)
        #expect(eaten[0] == 650)
        #expect(abs(eaten[1] - 500) < 0.01)   // 2092 kJ

        #expect(readings.filter { $0.kind == .activeEnergy }.map(\.value) == [0.512])
        #expect(readings.filter { $0.kind == .basalEnergy }.map(\.value) == [1.1])
        #expect(readings.filter { $0.kind == .heartRateVariability }.map(\.value) == [43.2])
        let heights = readings.filter { $0.kind == .height }.map(\.value)
        #expect(heights.count == 2)
        #expect(abs(heights[0] - 175.26) < 1e-9)
        #expect(result.tally.kept[.weight] == 2)
        #expect(result.tally.keptTotal == readings.count)
    }

    @Test func keepsStepsRestingHeartRateBodyFatAndLeanMassForTheInsights() throws {
        let folder = try TempFolder()
        let (result, readings) = try readAll(try folder.write("export.xml", Self.mixedExport))

        #expect(readings.filter { $0.kind == .steps }.map(\.value) == [1200, 800])
        #expect(readings.filter { $0.kind == .restingHeartRate }.map(\.value) == [52])
        // Apple writes body fat as a fraction with the unit "%": 0.235 is 23.5 %, stored as the scale's fatRatio.
        let fat = readings.filter { $0.kind == .bodyFat }
        #expect(fat.map(\.source) == ["Withings"])
        #expect(abs(fat[0].value - 23.5) < 1e-12)
        #expect(ReadingKind.bodyFat.field == Field.fatRatio)
        // 121.3 lb × 0.45359237 kg/lb.
        let lean = readings.filter { $0.kind == .leanMass }.map(\.value)
        #expect(lean.count == 1 && abs(lean[0] - 55.0207545) < 1e-6)
        #expect(result.tally.kept[.steps] == 2)
        #expect(result.tally.skippedKinds["StepCount"] == nil)
    }

    @Test func countsWhatItSkipsByKind() throws {
        let folder = try TempFolder()
        let (result, _) = try readAll(try folder.write("export.xml", Self.mixedExport))

        #expect(result.tally.skippedKinds["HeartRate"] == 1)
        #expect(result.tally.skippedKinds["Workout"] == 1)
        #expect(result.tally.skippedKinds["ActivitySummary"] == 1)
        #expect(result.tally.skippedKinds["ExportDate"] == 1)
        #expect(result.tally.skippedKinds["MetadataEntry"] == nil, "children belong to their element")
        // The HRV record's two beats are too few to compute HRV from: said, and its SDNN kept all the same.
        #expect(result.tally.skippedReasons == [AppleHealthBeatList.Problem.tooShort.rawValue: 1])
    }

    @Test func readsBirthDateSexAndTheLatestHeightFromMe() throws {
        let folder = try TempFolder()
        let (result, _) = try readAll(try folder.write("export.xml", Self.mixedExport))

        #expect(result.profile.birthDate == Day(year: 1984, month: 7, day: 9))
        #expect(result.profile.sex == .female)
        // 5.75 ft measured in 2023 beats 170 cm from 2022, though it comes first in the file.
        #expect(abs((result.profile.heightCm ?? 0) - 175.26) < 1e-9)
    }

    @Test func implausibleValuesAreSkippedWithAReasonNotFatal() throws {
        let folder = try TempFolder()
        let file = try folder.write("export.xml", AppleHealthXML.document([
            AppleHealthXML.record("BodyMass", "0", unit: "kg", at: "2024-01-02 07:15:00 +0100"),
            AppleHealthXML.record("BodyMass", "2000", unit: "kg", at: "2024-01-02 07:16:00 +0100"),
            AppleHealthXML.record("BodyMass", "71", unit: "kg", at: "2024-01-02 07:17:00 +0100"),
            AppleHealthXML.record("ActiveEnergyBurned", "-3", unit: "kcal", at: "2024-01-02 07:18:00 +0100"),
            AppleHealthXML.record("BodyMass", "11", unit: "oz", at: "2024-01-02 07:19:00 +0100"),
        ].joined(separator: "\n")))
        let (result, readings) = try readAll(file)

        #expect(readings.map(\.value) == [71])
        #expect(result.tally.skippedReasons["weight outside 1–650 kg"] == 2)
        #expect(result.tally.skippedReasons["active energy outside 0–50000 kcal"] == 1)  // ReadingRules.energyKcal
        #expect(result.tally.skippedReasons["weights in unknown unit \"oz\""] == 1)
    }

    @Test func aZipExportIsReadFromItsExportXML() throws {
        let folder = try TempFolder()
        let zip = try folder.zip("export.zip", entries: [
            ("apple_health_export/export_cda.xml", "<ClinicalDocument/>"),
            ("apple_health_export/export.xml", Self.mixedExport),
        ])
        let plain = try readAll(try folder.write("export.xml", Self.mixedExport))
        let (result, readings) = try readAll(zip)

        #expect(result.format == .appleHealthZip)
        #expect(readings == plain.1)
        #expect(result.tally == plain.0.tally)
    }

    @Test func aTruncatedZipIsRefused() throws {
        let folder = try TempFolder()
        let zip = try folder.zip("export.zip", entries: [("apple_health_export/export.xml", Self.mixedExport)])
        let data = try Data(contentsOf: zip)
        try data.prefix(data.count * 2 / 3).write(to: zip)

        let message = try #require(importFailure(zip))
        #expect(message.hasPrefix("export.zip: "))
        #expect(message.contains("truncated"))
    }

    @Test func aZipDamagedInsideIsRefused() throws {
        let folder = try TempFolder()
        let big = AppleHealthXML.document((0..<400).map { i in
            AppleHealthXML.record("StepCount", "\(i * 7919 % 1000)", unit: "count", at: "2024-01-03 09:00:00 +0100")
        }.joined(separator: "\n"))
        let zip = try folder.zip("export.zip", entries: [("apple_health_export/export.xml", big)])
        var data = try Data(contentsOf: zip)
        for offset in stride(from: data.count / 3, to: data.count / 2, by: 7) { data[offset] ^= 0x5A }
        try data.write(to: zip)

        let message = try #require(importFailure(zip))
        #expect(message.hasPrefix("export.zip: "), "\(message)")
    }

    @Test func aZipWhoseChecksumDoesNotMatchIsRefused() throws {
        let folder = try TempFolder()
        let zip = try folder.zip("export.zip", entries: [("apple_health_export/export.xml", Self.mixedExport)])
        var data = try Data(contentsOf: zip)
        // The entry's CRC-32, in its local header (14 bytes in) and in the central directory (16 bytes in),
        // changed: the inflated bytes are intact, only their sum does not match.
        for (signature, offset) in [([UInt8]([0x50, 0x4B, 0x03, 0x04]), 14), ([0x50, 0x4B, 0x01, 0x02], 16)] {
            let start = try #require(data.firstRange(of: Data(signature))).lowerBound
            data[start + offset] ^= 0xFF
        }
        try data.write(to: zip)

        let message = try #require(importFailure(zip))
        #expect(message == "export.zip: the zip archive is damaged (a checksum does not match): apple_health_export/export.xml cannot be read",
                "\(message)")
    }

    @Test func theFormatComesFromTheContentNotTheName() throws {
        let folder = try TempFolder()
        let renamed = try folder.write("health-backup.dat", Self.mixedExport)
        #expect(try readAll(renamed).0.format == .appleHealthXML)
        let zip = try folder.zip("export.zip", entries: [("apple_health_export/export.xml", Self.mixedExport)])
        let zipRenamed = folder.url.appendingPathComponent("export.xml")
        try FileManager.default.moveItem(at: zip, to: zipRenamed)
        #expect(try readAll(zipRenamed).0.format == .appleHealthZip)

        let notes = try folder.write("notes.xml", "Dear diary, today I weighed 70 kg.\n")
        #expect(importFailure(notes)?.hasPrefix("notes.xml: not a file hmon can import") == true)
    }

    @Test func chunkBoundariesAnywhereGiveTheSameReadings() throws {
        let bytes = Array(Self.mixedExport.utf8)
        func scan(chunkSize: Int) throws -> [ImportedReading] {
            var readings: [ImportedReading] = []
            var scanner = XMLByteScanner(handler: AppleHealthTagHandler { readings.append($0) })
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunkSize)
                try bytes[start..<end].withUnsafeBytes { try scanner.feed($0) }
                start = end
            }
            try scanner.finish()
            return readings
        }
        let whole = try scan(chunkSize: bytes.count)
        // 2 weights, 2 step counts, a resting heart rate, body fat, lean mass, 2 meals, active, basal, HRV, 2 heights,
        // and the HRV record's measurement whose two beats were refused.
        #expect(whole.count == 15)
        for size in [1, 2, 3, 7, 64, 1000] {
            #expect(try scan(chunkSize: size) == whole, "chunks of \(size) bytes")
        }
    }
}
