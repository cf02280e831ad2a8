import Foundation
import TestSupport
import ModelTestSupport
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// The kinds' table is what every part reads a kind from: each entry must agree with the manifests it
/// puts its field in, the rules must hold its range, and a reading of each kind must reach its day's sum
/// on both engines, with nothing written for the kind anywhere but the table.
@Suite struct ReadingKindTableTests {
    @Test func everyKindHasItsOwnNameAndField() {
        let kinds = ReadingKind.allCases
        #expect(Set(kinds.map(\.name)).count == kinds.count)
        #expect(Set(kinds.map(\.field)).count == kinds.count)
        for kind in kinds {
            #expect(ReadingKind(rawValue: kind.name) == kind)
            #expect(ReadingKind(field: kind.field) == kind)
        }
        #expect(ReadingKind(rawValue: "no such kind") == nil)
    }

    @Test func eachBuiltInTypeCarriesItsKindsFieldsAsTheTableDescribesThem() throws {
        for kind in ReadingKind.allCases {
            #expect(!kind.deviceTypes.isEmpty, "\(kind.name) is carried by no device type")
            for type in kind.deviceTypes {
                let spec = try #require(type.manifest.field(kind.field), "\(type.deviceType.name) lacks \(kind.field)")
                #expect(spec.type == kind.fieldType && spec.unit == kind.unit, "\(kind.field) on \(type.deviceType.name)")
            }
        }
    }

    @Test func theRulesRefuseAValueJustOutsideEachKindsRange() throws {
        for kind in ReadingKind.allCases {
            guard let range = kind.range else { continue }
            let spec = kind.fieldSpec
            #expect(try ReadingRules.accepted(range.lowerBound, for: spec) == range.lowerBound)
            #expect(try ReadingRules.accepted(range.upperBound, for: spec) == range.upperBound)
            #expect(throws: HealthError.self, "\(kind.field) above its range") { try ReadingRules.accepted(range.upperBound + 1, for: spec) }
            #expect(throws: HealthError.self, "\(kind.field) below its range") { try ReadingRules.accepted(range.lowerBound - 1, for: spec) }
        }
    }

    @Test func sourcesAreReadInTheUnitsTheTableGives() throws {
        #expect(UnitConversion.converted(150, for: .weight, unit: "lb") == 150 * MassUnit.kgPerPound)
        #expect(abs((UnitConversion.converted(0.235, for: .bodyFat, unit: "%") ?? 0) - 23.5) < 1e-9, "Apple writes a fraction")
        #expect(UnitConversion.converted(23.5, for: .bodyFat, unit: "%", from: .healthAutoExport) == 23.5)
        #expect(UnitConversion.converted(4184, for: .dietaryEnergy, unit: "kJ") == EnergyUnit.kJ.toKcal(4184))
        #expect(UnitConversion.converted(72, for: .weight, unit: "furlong") == nil)
        #expect(HealthAutoExportMetrics.kept["resting_heart_rate"] == .restingHeartRate)
        #expect(ReadingKind.named("HKQuantityTypeIdentifierStepCount", by: .appleHealth) == .steps)
        #expect(ReadingKind.withings(meastype: 6) == .bodyFat)
    }

    @Test func aDayAddsUpEachKindAsTheTableSays() {
        var totals = DayTotals()
        for kind in ReadingKind.daySlots {
            totals.add([kind.field: .number(2)])
            totals.add([kind.field: .number(4)])
        }
        for kind in ReadingKind.daySlots {
            #expect(totals[kind] == SumCount(sum: 6, count: 2), "\(kind.name)")
            #expect(kind.day == .sum ? totals[kind].total == 6 : totals[kind].mean == 3)
        }
        #expect(totals[.height] == SumCount(), "a kind no day adds up has no sum")
        #expect(DayTotals(cacheText: totals.cacheText) == totals)
        // Sums kept before the slots changed (no signature, or another one) are summed again.
        #expect(DayTotals(cacheText: "0.0 0;0.0 0") == nil)
        #expect(DayTotals(cacheText: "abc:" + totals.cacheText.split(separator: ":")[1]) == nil)
    }

    /// One reading of each kind a day adds up, posted to a device of the kind's first type, comes back in
    /// that day's sums on either engine: the engines' queries are made from the table.
    @Test(arguments: StoreEngine.available)
    func everySummedKindReachesItsDayOnBothEngines(_ engine: StoreEngine) async throws {
        let world = try await StoreWorld(engine)
        let (user, service) = try await world.user()
        let berlin = calendar()
        var devices: [BuiltInDeviceType: Device] = [:]
        let at = date("2026-11-18 09:00", in: berlin).millisecondsSince1970
        for kind in ReadingKind.daySlots {
            let type = kind.deviceTypes[0]
            if devices[type] == nil { devices[type] = try await world.device(type, named: type.deviceType.name, for: service) }
            let range = kind.range ?? ReadingRules.range(of: kind.field) ?? 0...1
            let value = kind.fieldType == .integer ? (range.lowerBound + 1).rounded() : range.lowerBound + (range.upperBound - range.lowerBound) / 4
            try await service.post(NewMessage(sdid: devices[type]!.id, ts: at, data: [kind.field: .number(value)]))
            let start = date("2026-11-18 00:00", in: berlin).millisecondsSince1970
            let end = date("2026-11-19 00:00", in: berlin).millisecondsSince1970
            let totals = try await world.store.dayTotals(userID: user.id, dayStarts: [start], end: end)
            #expect(totals[0]?[kind] == SumCount(sum: value, count: 1), "\(kind.name) on \(engine)")
        }
    }
}
