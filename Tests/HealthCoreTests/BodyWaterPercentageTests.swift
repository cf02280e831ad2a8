import Foundation
import GRDB
@testable import HealthCore
@testable import HealthConnectors
@testable import HealthModel
import Testing
@testable import SQLiteStorage

/// Body water as a share of the body's weight: one entry in the kinds' table, read from openScale's `water`
/// column (%) and from Withings' hydration (meastype 77, a mass in kg) as a share of the group's weight.
@Suite struct BodyWaterPercentageTests {
    static let field = ReadingKind.bodyWaterPercentage.field

    @Test func withingsHydrationIsKeptAsAShareOfTheSameGroupsWeight() throws {
        // 80000 × 10^-3 = 80 kg; 44000 × 10^-3 = 44 kg of water: 55 %. The second group has no weight to share.
        let answer = """
            [{"grpid": 1, "attrib": 0, "date": 1763622000, "created": 1763622010, "modified": 1763622010, "category": 1,
              "measures": [{"value": 80000, "type": 1, "unit": -3}, {"value": 44000, "type": 77, "unit": -3}]},
             {"grpid": 2, "attrib": 0, "date": 1763708400, "created": 1763708400, "modified": 1763708400, "category": 1,
              "measures": [{"value": 43000, "type": 77, "unit": -3}]}]
            """
        let groups = try JSONDecoder().decode([WithingsMeasureGroup].self, from: Data(answer.utf8))
        let decoded = WithingsWeighIns(groups, now: Date(timeIntervalSince1970: 1_764_000_000))
        #expect(decoded.weighIns.count == 1, "hydration without a weight makes no reading")
        #expect(decoded.weighIns.first?.data[Self.field] == .number(55))
        #expect(decoded.weighIns.first?.data[Field.weight] == .number(80))
        #expect(WithingsWeighIns.measureTypes.split(separator: ",").contains("77"), "asked for from Withings")
    }

    @Test func theRulesHoldItWithinNoneToAllOfTheBody() throws {
        let scale = BuiltInDeviceType.scale.manifest
        #expect(try ReadingRules.accepted([Self.field: .number(55.4)], manifest: scale, typeName: "Scale") == [Self.field: .number(55.4)])
        #expect(throws: HealthError.self) { try ReadingRules.accepted([Self.field: .number(155)], manifest: scale, typeName: "Scale") }
        #expect(Field.quantityKind(of: Self.field) == .percent)
    }

    /// A store made before the kind existed gains the field on both scale types, after the fields it had.
    @Test func aVersion20StoresScalesGainTheFieldAtTheirEnd() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("v20.sqlite")
        let types = [BuiltInDeviceType.withings, .scale].map(\.deviceType.id)
        func fields(_ type: String) throws -> [String] {
            try DatabaseQueue(path: url.path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM device_type_fields WHERE dtid = ? ORDER BY position", arguments: [type])
            }
        }
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool, upTo: "v20: a reading's ids as bytes")
            // Versions up to 20 wrote the scales as they were then: without the field.
            try pool.write { db in try db.execute(sql: "DELETE FROM device_type_fields WHERE name = ?", arguments: [Self.field]) }
        }
        let before = try types.map(fields)
        do {
            let pool = try DatabasePool(path: url.path)
            try Schema.migrator.migrate(pool)
        }
        #expect(try types.map(fields) == before.map { $0 + [Self.field] })
    }
}
