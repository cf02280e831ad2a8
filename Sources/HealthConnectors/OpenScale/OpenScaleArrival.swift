import Foundation
import HealthCore
import HealthModel

/// Applies openScale's events to the person's readings, so hmon mirrors the scale app: a weigh-in's id is
/// made of the person, the openScale user and the instant (what a `delete` names it by), and starts with a
/// tag of the person and the openScale user, so `clear` finds every weigh-in that user's link brought and
/// nothing else. Everything goes through the service, so open dashboards hear of it.
public enum OpenScaleArrival {
    public struct Tally: Sendable, Equatable, Encodable {
        public var event: String
        public var added = 0
        public var changed = 0
        public var alreadyThere = 0
        public var deleted = 0
        /// Weigh-ins refused, by why ("weight 900 is outside 1–650").
        public var refused: [String: Int] = [:]
    }

    public static func apply(_ event: OpenScaleEvent, service: LocalHealthService, userID: String, now: Date) async throws -> Tally {
        var tally = Tally(event: event.name)
        switch event {
        case .test:
            break
        case .put(let weighIns, _):
            let scale = try await service.device(recording: ReadingKind.weight.field, orMake: .scale).device
            for weighIn in weighIns {
                let mid = mid(userID: userID, scaleUser: weighIn.scaleUser, at: weighIn.timestamp)
                let message = NewMessage(sdid: scale.id, ts: weighIn.timestamp, data: weighIn.data)
                do {
                    if let stored = try await service.storedReading(id: mid) {
                        if stored.ts == message.ts, stored.data == message.data {
                            tally.alreadyThere += 1
                            continue
                        }
                        // Replaced whole: a figure the scale no longer sends must not stay behind.
                        try await service.deleteReading(id: mid)
                        _ = try await service.postBatch([message], mids: [mid], now: now)
                        tally.changed += 1
                    } else {
                        _ = try await service.postBatch([message], mids: [mid], now: now)
                        tally.added += 1
                    }
                } catch HealthError.invalidValue(let why) {
                    // A weigh-in hmon refuses (900 kg) is counted with why; the rest is kept.
                    tally.refused[why, default: 0] += 1
                }
            }
        case .delete(let scaleUser, let time):
            let mid = mid(userID: userID, scaleUser: scaleUser, at: time)
            if try await service.storedReading(id: mid) != nil {
                try await service.deleteReading(id: mid)
                tally.deleted += 1
            }
        case .clear(let scaleUser):
            let ids = try await service.store.readingIDs(startingWith: tag(userID: userID, scaleUser: scaleUser), userID: userID, limit: 1_000_000)
            for id in ids {
                try await service.deleteReading(id: id)
                tally.deleted += 1
            }
        }
        return tally
    }

    /// 32 hex digits: the person's and the openScale user's tag, then 16 of SHA-256 over the instant.
    public static func mid(userID: String, scaleUser: Int, at time: Int64) -> String {
        tag(userID: userID, scaleUser: scaleUser) + Secrets.sha256Hex("openscale-weigh-in\u{1F}\(time)").prefix(16)
    }

    static func tag(userID: String, scaleUser: Int) -> String {
        String(Secrets.sha256Hex("openscale\u{1F}\(userID)\u{1F}\(scaleUser)").prefix(16))
    }
}
