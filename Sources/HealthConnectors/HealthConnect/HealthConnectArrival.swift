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
/// record never costs the good ones and never deletes what it would replace. The rest are written in one
/// transaction, all or nothing, however many there are: a first sync's backfill (hundreds of thousands of
/// records) too, so a kill part way keeps none of it and the app, answered no 200, sends it again whole. What
/// the writes need from the store (devices, a day's records to take back, a window's merged mean) is looked
/// up first; each write is then made from its reading when the transaction asks for it (`PlannedWrites`), so
/// the payload's readings are the only copy held. On SQLite the transaction holds the one writer for as long
/// as it takes (about a minute for 490,000 records), as an import does: the server's other writes wait their
/// turn.
///
/// A day's total wins over that day's records whenever it comes: the readings of records of a kind
/// `daily_totals` covers have ids that start with a tag of their user, kind and day (`dayTag`), so the
/// day's total, when it arrives in a later payload (a sync delivered in several, or daily totals switched on
/// later), finds them by that prefix and takes them back in the same transaction as it is written.
public enum HealthConnectArrival {
    /// `sentAt`: the payload's own `timestamp` (ms), which a record must not be older than to change its reading.
    public static func store(_ readings: [HealthConnectReading], service: LocalHealthService, userID: String,
                             sentAt: Int64? = nil, now: Date) async throws -> HealthConnectTally {
        var tally = HealthConnectTally()
        var plan = PlannedWrites(readings: readings, userID: userID, sentAt: sentAt)
        var devices: [ReadingKind: Int] = [:]
        for (place, reading) in readings.enumerated() {
            var data = data(of: reading)
            if let why = ArrivalJudge.problem(ts: reading.timestamp, data: data, now: now) {
                tally.refusals.append(ArrivalRefusal(record: reading.record.isEmpty ? reading.kind.name : reading.record, why: why))
                continue
            }
            if let day = reading.totalOf {
                for id in try await service.store.readingIDs(startingWith: dayTag(userID: userID, kind: reading.kind, day: day),
                                                             userID: userID, limit: 100_000) {
                    plan.steps.append(.delete(mid: id, reading: place))
                }
            }
            let device: Int
            if let known = devices[reading.kind] {
                device = known
            } else {
                // A scale's kinds go to the person's scale, or a new generic one: never a new "Withings Device".
                let type: BuiltInDeviceType = reading.kind.deviceTypes.first == .withings ? .scale : reading.kind.deviceTypes.first ?? .activityTracker
                // A kind whose first type is not a scale's (a blood pressure, SpO2) goes to a device of that type.
                plan.devices.append(try await service.device(recording: reading.kind.field, orMake: type, preferringType: type == .activityTracker))
                device = plan.devices.count - 1
                devices[reading.kind] = device
            }
            if reading.samples != nil {
                // Made safe by `ReadingOrigin`, so it cannot be what refuses the reading.
                if plan.devices[device].keepsSource, data[Field.source] == nil { data[Field.source] = .text(reading.origin) }
                guard let whole = try await WindowMerge.merged(data, kind: reading.kind, into: mid(userID: userID, reading: reading),
                                                               sentAt: sentAt, service: service) else {
                    tally.alreadyThere[reading.kind, default: 0] += 1
                    continue
                }
                plan.merged.append(whole)
                plan.steps.append(.put(reading: place, device: device, merged: plan.merged.count - 1))
            } else {
                plan.steps.append(.put(reading: place, device: device, merged: nil))
            }
        }
        guard !plan.steps.isEmpty else { return tally }
        let results = try await service.applyArrival(plan, path: .healthConnect, now: now)
        for (step, result) in zip(plan.steps, results) {
            let kind = readings[step.reading].kind
            switch result {
            case .added: tally.added[kind, default: 0] += 1
            case .changed: tally.changed[kind, default: 0] += 1
            case .unchanged: tally.alreadyThere[kind, default: 0] += 1
            case .stale: tally.stale[kind, default: 0] += 1
            case .deleted: tally.replacedByDayTotal[kind, default: 0] += 1
            case .absent: break
            }
        }
        return tally
    }

    /// A payload's writes as places in its readings: each put is made from its reading when asked for.
    struct PlannedWrites: ArrivalWriteList {
        enum Step: Sendable {
            /// A record of the day whose total `reading` is, taken back.
            case delete(mid: String, reading: Int)
            case put(reading: Int, device: Int, merged: Int?)

            var reading: Int {
                switch self {
                case .delete(_, let reading), .put(let reading, _, _): reading
                }
            }
        }

        let readings: [HealthConnectReading]
        let userID: String
        let sentAt: Int64?
        var devices: [DeviceForReading] = []
        /// Windows' data merged with what they held (`WindowMerge`).
        var merged: [[String: FieldValue]] = []
        var steps: [Step] = []

        var count: Int { steps.count }

        func readingID(at index: Int) -> String {
            switch steps[index] {
            case .delete(let mid, _): mid
            case .put(let place, _, _): HealthConnectArrival.mid(userID: userID, reading: readings[place])
            }
        }

        func deletedID(at index: Int) -> String? {
            guard case .delete(let mid, _) = steps[index] else { return nil }
            return mid
        }

        func write(at index: Int) -> ArrivalWrite {
            switch steps[index] {
            case .delete(let mid, _):
                return .delete(mid: mid)
            case .put(let place, let device, let mergedPlace):
                let reading = readings[place]
                var data = mergedPlace.map { merged[$0] } ?? HealthConnectArrival.data(of: reading)
                // Made safe by `ReadingOrigin`, so it cannot be what refuses the reading.
                if devices[device].keepsSource, data[Field.source] == nil { data[Field.source] = .text(reading.origin) }
                return .put(mid: HealthConnectArrival.mid(userID: userID, reading: reading),
                            message: NewMessage(sdid: devices[device].device.id, ts: reading.timestamp, data: data), sentAt: sentAt)
            }
        }
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

    static func data(of reading: HealthConnectReading) -> [String: FieldValue] {
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
