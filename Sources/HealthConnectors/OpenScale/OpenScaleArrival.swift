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
        /// The same one by one, by place (`measurements[2]: date must be …`); the first `ArrivalRefusal.listedAtMost`.
        public var refusals: [String] = []
        /// The openScale user this link follows, once it follows one.
        public var following: Int?
        /// What was about another openScale user and kept nothing, by why.
        public var skipped: [String: Int] = [:]

        mutating func refuse(_ refusal: ArrivalRefusal) {
            refused[refusal.why, default: 0] += 1
            if refusals.count < ArrivalRefusal.listedAtMost { refusals.append(refusal.text) }
        }
    }

    /// Applies `event` for the link's person; with `following`, only what is about that openScale user: the rest
    /// is answered (the app must not send it again) and named in `skipped`, and keeps nothing.
    public static func apply(_ event: OpenScaleEvent, service: LocalHealthService, userID: String, following: Int? = nil,
                             now: Date) async throws -> Tally {
        var tally = Tally(event: event.name)
        tally.following = following
        func followed(_ scaleUser: Int, name: String?) -> Bool {
            guard let following, scaleUser != following else { return true }
            let who = name.map { "openScale user \(scaleUser) (\($0))" } ?? "openScale user \(scaleUser)"
            tally.skipped["\(who): this link follows openScale user \(following); make another link with --openscale-user \(scaleUser) "
                          + "for that person", default: 0] += 1
            return false
        }
        var writes: [ArrivalWrite] = []
        switch event {
        case .test:
            break
        case .put(let weighIns, _, let refused):
            for refusal in refused { tally.refuse(refusal) }
            var scale: DeviceForReading?
            for weighIn in weighIns where followed(weighIn.scaleUser, name: weighIn.username) {
                // Judged before anything is written: an update refused for its value leaves the weigh-in it
                // was to replace as it was.
                if let why = ArrivalJudge.problem(ts: weighIn.timestamp, data: weighIn.data, now: now) {
                    tally.refuse(ArrivalRefusal(record: weighIn.place, why: why))
                    continue
                }
                if scale == nil { scale = try await service.device(recording: ReadingKind.weight.field, orMake: .scale) }
                guard let scale else { continue }
                var data = weighIn.data
                if scale.keepsSource { data[Field.source] = .text(weighIn.origin) }
                writes.append(.put(mid: mid(userID: userID, scaleUser: weighIn.scaleUser, at: weighIn.timestamp),
                                   message: NewMessage(sdid: scale.device.id, ts: weighIn.timestamp, data: data)))
            }
        case .delete(let scaleUser, let time):
            guard followed(scaleUser, name: nil) else { break }
            writes.append(.delete(mid: mid(userID: userID, scaleUser: scaleUser, at: time)))
        case .clear(let scaleUser):
            guard followed(scaleUser, name: nil) else { break }
            let ids = try await service.store.readingIDs(startingWith: tag(userID: userID, scaleUser: scaleUser), userID: userID, limit: 1_000_000)
            writes = ids.map { .delete(mid: $0) }
        }
        guard !writes.isEmpty else { return tally }
        for result in try await service.applyArrival(writes, path: .openScale, now: now) {
            switch result {
            case .added: tally.added += 1
            case .changed: tally.changed += 1
            case .unchanged, .stale: tally.alreadyThere += 1
            case .deleted: tally.deleted += 1
            case .absent: break
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
