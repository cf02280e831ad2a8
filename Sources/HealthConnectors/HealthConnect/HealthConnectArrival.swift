import Foundation
import HealthCore
import HealthModel

/// What storing a payload's readings did, per kind.
public struct HealthConnectTally: Sendable, Equatable {
    public var added: [ReadingKind: Int] = [:]
    public var alreadyThere: [ReadingKind: Int] = [:]
    /// Readings stored before whose record came again with another value or time (an edit in Health Connect,
    /// a day's total that grew): changed in place.
    public var changed: [ReadingKind: Int] = [:]
    /// Readings of records stored by an earlier payload, taken back because their day's total came.
    public var replacedByDayTotal: [ReadingKind: Int] = [:]
    /// Readings refused at the door (a time before 2000, a name that would drive a terminal), each by its record.
    public var refusals: [ArrivalRefusal] = []
    /// Records with other figures than their reading's, in a payload sent before that reading was written (a body
    /// sent again later): left as they are, so an edit is never rolled back.
    public var stale: [ReadingKind: Int] = [:]
}

/// Stores a payload's readings for the link's user through the service, as any reading that arrives from
/// outside: on the device that records its field (made with a plain name when there is none), with an id
/// derived from the user and the reading's `key`, so a re-sent batch finds its readings already there and
/// an edited record replaces the reading it made.
///
/// Each reading is judged on its own first (`ArrivalJudge`): a refused one is named and left out, so a bad
/// record never costs the good ones and never deletes what it would replace. The rest are written in
/// transactions of at most `writesPerTransaction` (`applyArrival`): a payload of up to that many records (every
/// regular sync) is one transaction, all or nothing; a larger one (a first sync's backfill, hundreds of
/// thousands of records) is several, each all or nothing, so its writes (a few hundred bytes each, with the
/// transaction's results) are never all held at once. A kill part way keeps the transactions committed
/// before it; the app, answered no 200, sends the whole payload again, and each record's id makes what was
/// kept add nothing the second time.
///
/// A day's total wins over that day's records whenever it comes: the readings of records of a kind
/// `daily_totals` covers have ids that start with a tag of their user, kind and day (`dayTag`), so the
/// day's total, when it arrives in a later payload (a sync delivered in several, or daily totals switched on
/// later), finds them by that prefix and takes them back in the same transaction as it is written.
public enum HealthConnectArrival {
    /// The most writes one transaction of a payload holds.
    public static let writesPerTransaction = 5_000

    /// `sentAt`: the payload's own `timestamp` (ms), which a record must not be older than to change its reading.
    public static func store(_ readings: [HealthConnectReading], service: LocalHealthService, userID: String,
                             sentAt: Int64? = nil, now: Date) async throws -> HealthConnectTally {
        var tally = HealthConnectTally()
        var devices: [ReadingKind: DeviceForReading] = [:]
        var writes: [ArrivalWrite] = []
        var kinds: [ReadingKind] = []
        for reading in readings {
            var data = data(of: reading)
            if let why = ArrivalJudge.problem(ts: reading.timestamp, data: data, now: now) {
                tally.refusals.append(ArrivalRefusal(record: reading.record.isEmpty ? reading.kind.name : reading.record, why: why))
                continue
            }
            // A reading's writes (a day's total with the deletes of its day's records) go in one transaction:
            // the one before is applied first when this reading might not fit in it.
            if writes.count >= writesPerTransaction {
                try await apply(&writes, kinds: &kinds, to: &tally, service: service, now: now)
            }
            if let day = reading.totalOf {
                for id in try await service.store.readingIDs(startingWith: dayTag(userID: userID, kind: reading.kind, day: day),
                                                             userID: userID, limit: 100_000) {
                    writes.append(.delete(mid: id))
                    kinds.append(reading.kind)
                }
            }
            let device: DeviceForReading
            if let known = devices[reading.kind] {
                device = known
            } else {
                // A scale's kinds go to the person's scale, or a new generic one: never a new "Withings Device".
                let type: BuiltInDeviceType = reading.kind.deviceTypes.first == .withings ? .scale : reading.kind.deviceTypes.first ?? .activityTracker
                // A kind whose first type is not a scale's (a blood pressure, SpO2) goes to a device of that type.
                device = try await service.device(recording: reading.kind.field, orMake: type, preferringType: type == .activityTracker)
                devices[reading.kind] = device
            }
            // Made safe by `ReadingOrigin`, so it cannot be what refuses the reading.
            if device.keepsSource, data[Field.source] == nil { data[Field.source] = .text(reading.origin) }
            let id = mid(userID: userID, reading: reading)
            if reading.samples != nil {
                guard let whole = try await WindowMerge.merged(data, kind: reading.kind, into: id, sentAt: sentAt, service: service) else {
                    tally.alreadyThere[reading.kind, default: 0] += 1
                    continue
                }
                data = whole
            }
            writes.append(.put(mid: id, message: NewMessage(sdid: device.device.id, ts: reading.timestamp, data: data),
                               sentAt: sentAt))
            kinds.append(reading.kind)
        }
        try await apply(&writes, kinds: &kinds, to: &tally, service: service, now: now)
        return tally
    }

    /// Applies `writes` in one transaction, counts what each did by its kind, and empties both lists.
    private static func apply(_ writes: inout [ArrivalWrite], kinds: inout [ReadingKind], to tally: inout HealthConnectTally,
                              service: LocalHealthService, now: Date) async throws {
        guard !writes.isEmpty else { return }
        for (kind, result) in zip(kinds, try await service.applyArrival(writes, path: .healthConnect, now: now)) {
            switch result {
            case .added: tally.added[kind, default: 0] += 1
            case .changed: tally.changed[kind, default: 0] += 1
            case .unchanged: tally.alreadyThere[kind, default: 0] += 1
            case .stale: tally.stale[kind, default: 0] += 1
            case .deleted: tally.replacedByDayTotal[kind, default: 0] += 1
            case .absent: break
            }
        }
        writes.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
    }

    /// 32 hex digits of SHA-256 over the source, the user, the kind and the reading's key: the same record
    /// sent again, by any batch, names the same reading, and another user's never does. A record a day's
    /// total may cover starts with its day's tag instead of the first 16.
    public static func mid(userID: String, reading: HealthConnectReading) -> String {
        let digest = Secrets.sha256Hex("health-connect\u{1F}\(userID)\u{1F}\(reading.kind.name)\u{1F}\(reading.key)")
        guard let day = reading.countsToward else { return String(digest.prefix(32)) }
        return dayTag(userID: userID, kind: reading.kind, day: day) + digest.prefix(16)
    }

    /// 16 hex digits (64 bits: no other reading's id starts so by chance) naming a user's records of a kind on a day.
    static func dayTag(userID: String, kind: ReadingKind, day: Day) -> String {
        String(Secrets.sha256Hex("health-connect-day\u{1F}\(userID)\u{1F}\(kind.name)\u{1F}\(day)").prefix(16))
    }

    private static func data(of reading: HealthConnectReading) -> [String: FieldValue] {
        var data: [String: FieldValue] = [reading.kind.field: .number(reading.value)]
        for (field, value) in reading.extras { data[field] = .number(value) }
        for (field, text) in reading.texts { data[field] = .text(text) }
        if let comment = reading.comment { data[Field.comments] = .text(comment) }
        if let samples = reading.samples { data[Field.samples] = .number(samples) }
        // The HRV screen tells Health Connect's figure from hmon's own, computed from beats.
        if reading.kind == .heartRateVariabilityFromBeats { data[Field.source] = .text(HRVSource.healthConnect.rawValue) }
        return data
    }
}
