import Foundation
import HealthCore
import HealthConnectors
import HealthModel

/// Feeds inputs to the Withings measure decoder, as the body of a `getmeas` answer: decoded as
/// `WithingsAPI.measureGroups` decodes it, then turned into weigh-ins as `WithingsSync` does.
///
/// What must hold: decoding either fails (a `DecodingError`, which the client reports) or gives groups; no
/// group traps (its date once did, converted to milliseconds); every weigh-in kept is dated within the
/// API's window and holds finite figures a reading may hold.
enum WithingsFuzz {
    /// A fixed "now", so an input means the same on every run: 2026-11-20.
    static let now = Date(timeIntervalSince1970: 1_763_622_000)

    static func decode(_ input: [UInt8]) throws(FuzzFinding) {
        guard let body = try? JSONDecoder().decode(WithingsMeasureBody.self, from: Data(input)) else { return }
        let decoded = WithingsWeighIns(body.measuregrps, now: now)
        let nowMs = now.millisecondsSince1970
        for weighIn in decoded.weighIns {
            guard StoreRules.isInPostedWindow(weighIn.timestamp, now: nowMs) else {
                throw FuzzFinding("a weigh-in outside the window was kept: grpid \(weighIn.grpid) at \(weighIn.timestamp)")
            }
            for (field, value) in weighIn.data {
                guard case .number(let number) = value else { continue }
                guard number.isFinite, (try? ReadingRules.check(field: field, value: number)) != nil else {
                    throw FuzzFinding("a weigh-in kept \(field) \(number): grpid \(weighIn.grpid)")
                }
            }
            _ = WithingsWeighIns.mid(userID: "fuzz", grpid: weighIn.grpid, timestamp: weighIn.timestamp)
        }
        _ = decoded.skippedText
    }
}
