import Foundation
import HealthCore
import HealthModel
import Testing

/// Withings' `getmeas` answer decoded as developer.withings.com defines it: `value × 10^unit`, the kept
/// types on the scale's fields, the ambiguous groups skipped and reported. Values worked by hand.
@Suite struct WithingsMeasuresTests {
    private struct Answer: Decodable {
        var status: Int
        var body: WithingsMeasureBody
    }

    /// The documented example answer (its group as given: attrib 1, 65750 × 10^-3 kg, a placeholder
    /// `updatetime`), with three groups of a morning's weigh-ins beside it.
    static let answer = """
        {"status": 0, "body": {"updatetime": "string", "timezone": "Europe/Paris", "more": 0, "offset": 0, "measuregrps": [
          {"grpid": 12, "attrib": 1, "date": 1594245600, "created": 1594246600, "modified": 1594257200, "category": 1594257200,
           "deviceid": "892359876fd8805ac45bab078c4828692f0276b1",
           "measures": [{"value": 65750, "type": 1, "unit": -3, "algo": 3425, "fm": 1, "fw": 1000}],
           "comment": "A measurement comment", "timezone": "Europe/Paris"},
          {"grpid": 1001, "attrib": 0, "date": 1763622000, "created": 1763622010, "modified": 1763622010, "category": 1,
           "deviceid": "892359876fd8805ac45bab078c4828692f0276b1",
           "measures": [{"value": 72350, "type": 1, "unit": -3}, {"value": 2180, "type": 6, "unit": -2},
                        {"value": 56577, "type": 5, "unit": -3}, {"value": 15773, "type": 8, "unit": -3},
                        {"value": 64, "type": 11, "unit": 0}]},
          {"grpid": 1002, "attrib": 2, "date": 1763708400, "created": 1763708400, "modified": 1763708400, "category": 1,
           "measures": [{"value": 7190, "type": 1, "unit": -2}]},
          {"grpid": 1003, "attrib": 0, "date": 1763708500, "created": 1763708500, "modified": 1763708500, "category": 1,
           "measures": [{"value": 61, "type": 11, "unit": 0}]}
        ]}}
        """

    @Test func aMorningsWeighInsAreDecodedAsWithingsDefinesThem() throws {
        let body = try JSONDecoder().decode(Answer.self, from: Data(Self.answer.utf8)).body
        #expect(body.updatetime == nil, "the example's placeholder is not a time")
        let decoded = WithingsWeighIns(body.measuregrps)

        #expect(decoded.weighIns.map(\.grpid) == [1001, 1002], "one reading per kept group; a group with only a heart rate makes none")
        let morning = try #require(decoded.weighIns.first)
        #expect(morning.timestamp == 1_763_622_000_000, "date is in seconds; readings in ms")
        // 72350 × 10^-3 = 72.35 kg; 2180 × 10^-2 = 21.8 %; 56577 × 10^-3 = 56.577 kg; 15773 × 10^-3 = 15.773 kg.
        #expect(morning.data == [Field.weight: .number(72.35), Field.fatRatio: .number(21.8), Field.fatFreeMass: .number(56.577),
                                 Field.fatMassWeight: .number(15.773), Field.source: .text("Withings")])
        // Entered by hand (attrib 2) is the person's own: 7190 × 10^-2 = 71.9 kg.
        #expect(decoded.weighIns[1].data[Field.weight] == .number(71.9))

        #expect(decoded.ambiguous == 1, "the documented example's group (attrib 1) may be someone else's")
        #expect(decoded.otherTypes == [11: 2], "two heart rates, counted and not kept")
        #expect(decoded.skippedText.contains { $0.contains("1 ambiguous weigh-in skipped") })
        #expect(decoded.skippedText.contains { $0.contains("2 measures of other types not kept (type 11)") })
    }

    @Test func positiveAndZeroUnitsScaleUp() {
        #expect(WithingsMeasure(value: 7, type: 1, unit: 1).decoded == 70)
        #expect(WithingsMeasure(value: 70, type: 1, unit: 0).decoded == 70)
        #expect(WithingsMeasure(value: 65750, type: 1, unit: -3).decoded == 65.75)
    }

    @Test func aGroupKeepsItsIdWhenFetchedAgainAndNoOtherUserShares() {
        let first = WithingsWeighIns.mid(userID: "u1", grpid: 1001, timestamp: 1_763_622_000_000)
        #expect(first == WithingsWeighIns.mid(userID: "u1", grpid: 1001, timestamp: 1_763_622_000_000))
        #expect(first != WithingsWeighIns.mid(userID: "u2", grpid: 1001, timestamp: 1_763_622_000_000))
        #expect(first != WithingsWeighIns.mid(userID: "u1", grpid: 1002, timestamp: 1_763_622_000_000))
        #expect(first.count == 32 && first.hasPrefix(String(1_763_622_000_000, radix: 16).leftPadded(to: 12)))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
