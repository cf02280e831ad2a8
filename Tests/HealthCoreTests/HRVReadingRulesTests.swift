import Foundation
import Testing
@testable import HealthCore
@testable import HealthModel

/// Welltory's figures go through the one reading rule: what is out of range is refused with its field named.
@Suite struct HRVReadingRulesTests {
    static let manifest = BuiltInDeviceType.hrvMeter.manifest

    @Test func outOfRangeHRVValuesAreRefusedNamingTheField() {
        let cases: [([String: FieldValue], String)] = [
            ([Field.stress: .number(1.4)], "stress 1.4 is outside 0–1"),
            ([Field.energy: .number(-0.1)], "energy -0.1 is outside 0–1"),
            ([Field.rmssd: .number(-3)], "rmssd -3 ms is outside 0–1000 ms"),
            ([Field.sdnn: .number(1_200)], "sdnn 1200 ms is outside 0–1000 ms"),
            ([Field.totalPower: .number(-1)], "totalPower -1 ms² is outside"),
            ([Field.stressColor: .text("blue")], "stressColor \"blue\" is not green, yellow, red or unknown"),
            ([Field.shareToken: .text("a b<script>")], "shareToken is not a Welltory share token"),
            ([Field.stress: .text("high")], "stress must be a number, not text"),
        ]
        for (data, message) in cases {
            let error = #expect(throws: HealthError.self) {
                try ReadingRules.accepted(data, manifest: Self.manifest, typeName: "HRV Meter")
            }
            #expect(error?.message.hasPrefix(message) == true, "\(data): \(String(describing: error))")
        }
    }

    @Test func welltorysExampleIsStoredAsGiven() async throws {
        let world = try TestWorld()
        let (_, service) = try await world.user()
        let meter = try await world.device(.hrvMeter, named: "Welltory", for: service)
        let data: [String: FieldValue] = [
            Field.stress: .number(0.32), Field.energy: .number(0.75), Field.productivity: .number(0.63),
            Field.rmssd: .number(90.3), Field.sdnn: .number(45.1), Field.totalPower: .number(100),
            Field.stressColor: .text("green"), Field.productivityColor: .text("red"), Field.energyColor: .text("yellow"),
        ]
        try await service.post(NewMessage(sdid: meter.id, data: data))
        let stored = try #require(try await service.lastMessages(device: meter.id, count: 1, field: nil).first)
        #expect(stored.data == data)
    }
}
