import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel
import HMonCommandLine

/// What `hmon import` says while it works and when it is done.
@Suite struct ImportReportTextTests {
    static func result() -> ImportResult {
        var tally = ImportTally()
        tally.kept = [.weight: 3, .activeEnergy: 1_200_000]
        tally.added = [.weight: 2, .activeEnergy: 1_200_000]
        tally.alreadyThere = [.weight: 1]
        tally.skippedReasons = ["weight outside 1–650 kg": 2, "row without a weight": 1]
        tally.skippedKinds = ["HeartRate": 900_000, "StepCount": 180_000, "Workout": 310, "ActivitySummary": 700,
                              "SleepAnalysis": 20_000, "FlightsClimbed": 5_000, "VO2Max": 90]
        tally.profileFilled = ["date of birth", "height"]
        return ImportResult(format: .appleHealthZip, tally: tally, profile: ImportedProfile())
    }

    @Test func theSummarySaysWhatWasAddedPerKindAndWhatWasSkippedAndWhy() {
        let lines = ImportReportText.summary(file: "export.zip", result: Self.result(), elapsed: 6.84, dryRun: false)
        #expect(lines == [
            "export.zip: Apple Health export (zip), read in 6.8 s",
            "added 1,200,002 readings: 2 weights, 1,200,000 active energy",
            "already there: 1 reading",
            "skipped 3: 2 weight outside 1–650 kg, 1 row without a weight",
            "not kept: 1,106,100 other records and elements (HeartRate 900,000, StepCount 180,000, SleepAnalysis 20,000, FlightsClimbed 5,000, ActivitySummary 700, and 2 more kinds)",
            "profile: filled date of birth, height",
        ])
    }

    @Test func aDryRunSaysWhatWouldHappen() {
        let lines = ImportReportText.summary(file: "export.zip", result: Self.result(), elapsed: 1, dryRun: true)
        #expect(lines[0].hasSuffix("(dry run: nothing was written)"))
        #expect(lines[1].hasPrefix("would add 1,200,002 readings"))
        #expect(lines.last == "profile: would fill date of birth, height")
        #expect(ImportReportText.oneLine(file: "export.zip", result: Self.result(), dryRun: true)
                == "export.zip: would add 1,200,002, already there 1, skipped 3")
    }

    @Test func theProgressLineShowsBytesReadingsRateAndTimeLeft() {
        let progress = ImportProgress(bytesRead: 250_000_000, totalBytes: 1_000_000_000, readingsKept: 245_120)
        #expect(ImportReportText.progressLine(file: "export.xml", progress, elapsed: 1.25)
                == "export.xml  250.0 of 1000.0 MB (25%) · 245,120 readings · 200 MB/s · 4 s left")
        #expect(ImportReportText.progressLine(file: "export.xml", progress, elapsed: 100)
                == "export.xml  250.0 of 1000.0 MB (25%) · 245,120 readings · 3 MB/s · 5 min left")
        #expect(ImportReportText.progressLine(file: "export.xml", progress, elapsed: 0)
                == "export.xml  250.0 of 1000.0 MB (25%) · 245,120 readings")
    }

    @Test func largeCountsAreGroupedByThousands() {
        #expect(ImportReportText.grouped(0) == "0")
        #expect(ImportReportText.grouped(999) == "999")
        #expect(ImportReportText.grouped(1000) == "1,000")
        #expect(ImportReportText.grouped(1_234_567) == "1,234,567")
    }
}
