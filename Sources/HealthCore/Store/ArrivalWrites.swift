import Foundation
import HealthModel

/// One change an arrival (a push, a pull) makes to a user's readings: a reading put under the id its source
/// gives it, replacing whole whatever that id held, or an id taken back.
///
/// An arrival's writes are applied together (`ReadingStore.applyArrival`): every reading is judged before,
/// by `ArrivalJudge`, so the transaction refuses nothing a source sent and a kill between two writes leaves
/// all of them or none.
public enum ArrivalWrite: Sendable, Equatable {
    /// `message.ts` is set: a put never takes the receipt's time. `sentAt` (ms), when the source stamps what it
    /// sends: a put sent before what its id holds was written is left as it is (`.stale`), so a body sent
    /// again later, signed or not, never rolls an edited reading back.
    case put(mid: String, message: NewMessage, sentAt: Int64? = nil)
    case delete(mid: String)
}

/// What one `ArrivalWrite` did.
public enum ArrivalWriteResult: Sendable, Equatable {
    case added
    /// A put whose id held another time or other figures: replaced whole, so a figure the source no longer
    /// sends does not stay behind.
    case changed
    /// A put whose id already held the same time and figures.
    case unchanged
    /// A put with other figures, sent before what its id holds was written: left as it is.
    case stale
    case deleted
    /// A delete of an id that holds nothing.
    case absent
}

extension ArrivalWriteResult {
    /// The result of putting `fields` at `ts`, sent at `sentAt`, under an id that holds `stored` (nil: nothing),
    /// both engines' rule.
    public static func ofPut(stored: Message?, ts: Int64, fields: [String: FieldValue], sentAt: Int64?) -> Self {
        guard let stored else { return .added }
        if stored.ts == ts && stored.data == fields { return .unchanged }
        if let sentAt, sentAt < stored.cts { return .stale }
        return .changed
    }

    /// What a put keeps as the reading's received time: the source's own stamp when it has one and it is not
    /// ahead of the server's clock (what `.stale` compares with), else the receipt's.
    public static func receivedTime(sentAt: Int64?, received: Int64) -> Int64 {
        min(sentAt ?? received, received)
    }
}

extension StoreRules {
    /// What a store checks of an arrival before its transaction: each put's time and device id, as a post's.
    /// The sources judged every reading before (`ArrivalJudge`), so a refusal here is a fault of hmon's own,
    /// named by the write's place.
    public static func checkArrival(_ writes: some ArrivalWriteList, now: Date) throws {
        for index in 0..<writes.count {
            guard case .put(_, let message, _) = writes.write(at: index) else { continue }
            do {
                guard let ts = message.ts else { throw HealthError.invalidValue("an arrival's reading has no time") }
                try checkTimestamp(ts, now: now.millisecondsSince1970)
                try checkNoNUL(message.sdid, as: "sdid")
            } catch let error as HealthError {
                throw inBatch(error, at: index)
            }
        }
    }
}

/// A record of a payload refused, named as the payload names it: its array and place, and its own id when
/// it has one (`weight[2] (uuid bad-1)`), so a person can find it in what the app sent.
public struct ArrivalRefusal: Sendable, Equatable, Encodable {
    public var record: String
    public var why: String

    public init(record: String, why: String) {
        self.record = record
        self.why = why
    }

    /// `weight[2] (uuid bad-1): before 2000`.
    public var text: String { "\(record): \(why)" }

    /// The most refusals an answer lists one by one; the rest are counted by why.
    public static let listedAtMost = 100
}

/// Judges each reading that arrives from outside before anything is written: its time by the one date rule
/// (`ReadingTime`), each number by the store's ranges, each text by `TextRules`. What passes is what the store
/// takes (`ReadingTarget.accepted` checks the same), so an arrival's transaction refuses none of it.
public enum ArrivalJudge {
    /// Why a reading is refused, in a short phrase; nil when it is taken.
    public static func problem(ts: Int64, data: [String: FieldValue], now: Date) -> String? {
        if let why = ReadingTime.problem(ts, now: now.millisecondsSince1970) { return why }
        for (field, value) in data.sorted(by: { $0.key < $1.key }) {
            do {
                switch value {
                case .number(let number):
                    guard number.isFinite else { return "\(field) must be a finite number" }
                    try ReadingRules.check(field: field, value: number)
                case .text(let text):
                    try TextRules.check(text, as: field)
                }
            } catch let error as HealthError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        return nil
    }
}
