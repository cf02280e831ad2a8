import Foundation
import HealthCore
import HealthModel

/// What storing one pull's readings did.
public struct OuraTally: Sendable, Equatable {
    public var added = 0
    public var alreadyThere = 0
    /// Readings stored before that Oura sent again with other figures (a night it completed later): changed in place.
    public var changed = 0
}

/// Stores Oura's readings for the link's user through the service, as Health Connect's arrive: on the
/// device that records the field (made with a plain name when there is none), each with an id derived
/// from the user and the reading's key, so a night pulled again is found already there (or changed in
/// place when Oura's figures changed), never added twice.
public enum OuraArrival {
    public static func store(_ readings: [OuraReading], service: LocalHealthService, userID: String, now: Date) async throws -> OuraTally {
        var tally = OuraTally()
        var devices: [ReadingKind: Device] = [:]
        var new: [(message: NewMessage, mid: String)] = []
        for reading in readings {
            let device: Device
            if let known = devices[reading.kind] {
                device = known
            } else {
                device = try await service.device(recording: reading.kind.field, orMake: reading.kind.deviceTypes.first ?? .activityTracker).device
                devices[reading.kind] = device
            }
            let mid = mid(userID: userID, reading: reading)
            let data = data(of: reading)
            if let stored = try await service.storedReading(id: mid) {
                if stored.ts == reading.timestamp, data.allSatisfy({ stored.data[$0.key] == $0.value }) {
                    tally.alreadyThere += 1
                } else {
                    _ = try await service.editReading(id: mid, ReadingChange(ts: reading.timestamp, data: data))
                    tally.changed += 1
                }
                continue
            }
            new.append((NewMessage(sdid: device.id, ts: reading.timestamp, data: data), mid))
        }
        if !new.isEmpty {
            // One transaction; a reading another pull stored meanwhile is left as it is.
            tally.added = try await service.postBatch(new.map(\.message), mids: new.map(\.mid), now: now)
            tally.alreadyThere += new.count - tally.added
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
