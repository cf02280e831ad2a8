import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// openScale's `water` column, in per cent, lands on the weigh-in as body water (`ReadingKind.bodyWaterPercentage`).
@Suite struct BodyWaterImportTests {
    static let field = ReadingKind.bodyWaterPercentage.field

    @Test func openScalesWaterColumnIsKeptInPerCent() throws {
        let folder = try TempFolder()
        let file = try folder.write("openScale.csv", """
        DATE,TIME,WEIGHT,FAT,WATER,MUSCLE,COMMENT
        2024-03-01,07:05,70.2,21.5,55.4,40,
        2024-03-02,07:06:30,70.0,,0,,

        """)
        let (_, readings) = try readAll(file, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(readings.map { $0.extras[Self.field] } == [55.4, nil], "openScale writes 0 for what it did not measure")
    }
}
