import Foundation
import HealthCore
import HealthModel

/// What storing one pull's readings did.
public struct OuraTally: Sendable, Equatable {
    public var added = 0
    public var alreadyThere = 0
    /// Readings stored before that Oura sent again with other figures (a night it completed later): changed in place.
    public var changed = 0
    /// Readings refused at the door, each by its key and why (`night:2099-01-01: more than a day in the future`).
    public var refused: [String] = []
}

/// Stores Oura's readings for the link's user through the service, as Health Connect's arrive: on the
/// device that records the field (made with a plain name when there is none), each with an id derived
/// from the user and the reading's key, so a night pulled again is found already there (or replaced when
/// Oura's figures changed), never added twice.
///
/// Each reading is judged first (`ArrivalJudge`): one Oura dated 2099 is skipped and named, as Withings
/// skips such a group, and the rest are kept in one transaction; it never blocks the link's later reads.
public enum OuraArrival {
    public static func store(_ readings: [OuraReading], service: LocalHealthService, userID: String, now: Date) async throws -> OuraTally {
        var tally = OuraTally()
        var devices: [ReadingKind: Device] = [:]
        var writes: [ArrivalWrite] = []
        for reading in readings {
            let data = data(of: reading)
            if let why = ArrivalJudge.problem(ts: reading.timestamp, data: data, now: now) {
                tally.refused.append(ArrivalRefusal(record: reading.key, why: why).text)
                continue
            }
            let device: Device
            if let known = devices[reading.kind] {
                device = known
            } else {
                device = try await service.device(recording: reading.kind.field, orMake: reading.kind.deviceTypes.first ?? .activityTracker).device
                devices[reading.kind] = device
            }
            writes.append(.put(mid: mid(userID: userID, reading: reading), message: NewMessage(sdid: device.id, ts: reading.timestamp, data: data)))
        }
        guard !writes.isEmpty else { return tally }
        for result in try await service.applyArrival(writes, path: .oura, now: now) {
            switch result {
            case .added: tally.added += 1
            case .changed: tally.changed += 1
            case .unchanged, .stale, .deleted, .absent: tally.alreadyThere += 1
            }
        }
        return tally
    }

    /// 32 hex digits of SHA-256 over the source, the user, the kind and the reading's key.
    public static func mid(userID: String, reading: OuraReading) -> String {
        String(Secrets.sha256Hex("oura\u{1F}\(userID)\u{1F}\(reading.kind.name)\u{1F}\(reading.key)").prefix(32))
    }

    private static func data(of reading: OuraReading) -> [String: FieldValue] {
        var data: [String: FieldValue] = [reading.kind.field: .number(reading.value)]
        for (field, value) in reading.extras { data[field] = .number(value) }
        // The HRV screen tells the ring's own figure from hmon's, computed from beats.
        if reading.kind == .heartRateVariabilityFromBeats { data[Field.source] = .text(HRVSource.oura.rawValue) }
        return data
    }
}
