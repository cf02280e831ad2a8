import Foundation
import Testing
@testable import HealthCore
@testable import HealthFormats
@testable import HealthModel

/// An imported reading's id must never change between versions: a re-import finds what an earlier one
/// stored only by it. The expected ids were computed outside hmon, with Python's hashlib, from the rule
/// `StoredReading.mid` documents — 12 hex digits of the time in ms, then the first 20 hex digits of
/// SHA-256 over "user␟source␟kind␟time␟identity" (␟ = U+001F):
///
///     key = "\x1f".join([user, source, kind, str(ts), identity]).encode()
///     "%012x" % ts + hashlib.sha256(key).hexdigest()[:20]
@Suite struct ReadingIdTests {
    static let received: Int64 = 1_800_000_000_000

    static let cases: [(ImportedReading, json: String, mid: String)] = [
        (ImportedReading(kind: .weight, source: "Withings", timestamp: 1_704_285_000_000, value: 72.4),
         "{\"weight\":72.4,\"source\":\"Withings\"}", "018ccf4d5140bec8090df8e82ad2f697"),
        (ImportedReading(kind: .activeEnergy, source: "Apple Watch", timestamp: 1_451_634_374_000, value: 8.18),
         "{\"activeEnergy\":8.18}", "0151fc26b57049cb3ee3733b8f8753d3"),
        // Food energy keeps the id of its whole-kcal form ({"calories":650}), as before it was kept as recorded.
        (ImportedReading(kind: .dietaryEnergy, source: "MyFitnessPal", timestamp: 1_704_285_000_000, value: 650.4),
         "{\"calories\":650.4}", "018ccf4d5140f8c901a747c077d98a3a"),
        // A height is imported in cm and stored in m.
        (ImportedReading(kind: .height, source: "Health", timestamp: 1_451_635_200_000, value: 181),
         "{\"height\":1.81,\"source\":\"Health\"}", "0151fc33500024c002c55c1d29b852e5"),
        (ImportedReading(kind: .steps, source: "Jörg’s iPhone", timestamp: 1_451_635_200_000, value: 1234),
         "{\"steps\":1234}", "0151fc335000dfe103471dbcaa9e2845"),
    ]

    @Test(arguments: 0..<cases.count)
    func aReadingKeepsTheIdEveryEarlierVersionGaveIt(_ index: Int) throws {
        let (reading, json, mid) = Self.cases[index]
        var preparer = ImportRowPreparer(userID: "u1", received: Self.received)
        let row = try preparer.prepare(reading)
        guard case .row(let preparedJSON, let preparedMid, _) = row.outcome else {
            Issue.record("the reading was skipped: \(row.outcome)")
            return
        }
        #expect(preparedMid == mid)
        #expect(preparedJSON == json)
    }

    @Test func theSamePreparerGivesEachReadingOfARunItsOwnId() throws {
        // The preparer remembers the last scale source it wrote into a reading's JSON; readings prepared
        // one after another by the same preparer, sources changing between them, must each still get
        // their own id and JSON.
        var preparer = ImportRowPreparer(userID: "u1", received: Self.received)
        var mids: [String] = []
        for (reading, json, mid) in Self.cases + Self.cases {
            let row = try preparer.prepare(reading)
            guard case .row(let preparedJSON, let preparedMid, _) = row.outcome else { continue }
            #expect(preparedMid == mid)
            #expect(preparedJSON == json)
            mids.append(preparedMid)
        }
        #expect(mids.count == 2 * Self.cases.count)
    }
}
