import Foundation
import HealthCore
import HealthConnectors
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
        let decoded = WithingsWeighIns(body.measuregrps, now: Date(timeIntervalSince1970: 1_764_000_000))

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

    /// A blood pressure monitor's group (types 10 systolic, 9 diastolic, 11 pulse), a pulse oximeter's (54)
    /// and a thermometer's (71), as developer.withings.com lists the types: value × 10^unit, each one reading.
    @Test func vitalSignsGroupsKeepTheirFiguresInOneReadingEach() throws {
        let json = #"""
            [{"grpid": 2001, "attrib": 0, "date": 1763622000, "category": 1,
              "measures": [{"value": 131, "type": 10, "unit": 0}, {"value": 84, "type": 9, "unit": 0}, {"value": 62, "type": 11, "unit": 0}]},
             {"grpid": 2002, "attrib": 0, "date": 1763622100, "category": 1, "measures": [{"value": 97, "type": 54, "unit": 0}]},
             {"grpid": 2003, "attrib": 0, "date": 1763622200, "category": 1, "measures": [{"value": 368, "type": 71, "unit": -1}]}]
            """#
        let groups = try JSONDecoder().decode([WithingsMeasureGroup].self, from: Data(json.utf8))
        let decoded = WithingsWeighIns(groups, now: Date(timeIntervalSince1970: 1_764_000_000))
        #expect(decoded.weighIns.map(\.data) == [
            [Field.systolic: .number(131), Field.diastolic: .number(84), Field.source: .text("Withings")],
            [Field.oxygenSaturation: .number(97), Field.source: .text("Withings")],
            [Field.bodyTemperature: .number(36.8), Field.source: .text("Withings")],
        ])
        #expect(decoded.otherTypes == [11: 1], "the cuff's pulse, like a scale's heart rate, is counted and not kept")
        #expect(WithingsWeighIns.measureTypes.split(separator: ",").contains("10") && WithingsWeighIns.measureTypes.split(separator: ",").contains("54"))
    }

    /// Dates held to the API's window, from 2000-01-01 to a day after now; each one outside is counted
    /// and named, never a trap (seconds past 9,223,372,036,854,775 overflow milliseconds).
    @Test func groupsDatedOutsideTheWindowOrWithImpossibleFiguresAreSkippedAndNamed() throws {
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        func group(_ grpid: Int64, _ date: Int64, _ value: Int64 = 70000, unit: Int = -3) throws -> WithingsMeasureGroup {
            let json = #"{"grpid": \#(grpid), "attrib": 0, "date": \#(date), "measures": [{"value": \#(value), "type": 1, "unit": \#(unit)}]}"#
            return try JSONDecoder().decode(WithingsMeasureGroup.self, from: Data(json.utf8))
        }
        let groups = try [group(1, 9_223_372_036_854_776), group(2, -9_223_372_036_854_776), group(3, Int64.max), group(4, Int64.min),
                          group(5, 0), group(6, 946_684_799), group(7, 1_764_000_000 + 86_401),
                          group(8, 946_684_800), group(9, 1_764_000_000 + 86_400), group(10, 1_763_622_000),
                          group(11, 1_763_622_000, 1, unit: 400), group(12, 1_763_622_000, 700_000)]
        let decoded = WithingsWeighIns(groups, now: now)
        #expect(decoded.weighIns.map(\.grpid) == [8, 9, 10], "2000-01-01 00:00 and exactly a day ahead are kept")
        #expect(decoded.weighIns.map(\.timestamp) == [946_684_800_000, 1_764_086_400_000, 1_763_622_000_000])
        #expect(decoded.outOfWindow.map(\.grpid) == [1, 2, 3, 4, 5, 6, 7])
        #expect(decoded.refusedValues.count == 2 && decoded.refusedGroups == 9)
        let text = decoded.skippedText.joined(separator: "\n")
        #expect(text.contains("7 measure groups skipped: dated before 2000-01-01 or more than a day ahead (grpid 1 dated 9223372036854776, "
                              + "grpid 2 dated -9223372036854776"), "\(text)")
        #expect(text.contains("2 measure groups skipped for a figure no reading may hold (grpid 11: weight"), "\(text)")
        #expect(text.contains("grpid 12: weight 700 kg is outside 1–650 kg"), "\(text)")
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
