import Foundation
import HealthCore
import HealthModel

/// Withings as a pulled source: a read asks `getmeas` for what changed since the link's last fetch
/// (`lastupdate`), and keeps each kept measure group once, as one reading on the person's scale
/// (`WithingsWeighIns.mid`).
extension WithingsAPI: PulledSource {
    public typealias Link = WithingsLink
    public typealias Refusal = WithingsError
    public typealias Fetch = WithingsFetch
    public typealias Batch = (groups: [WithingsMeasureGroup], updateTime: Int64?)

    public static var defaultPollInterval: Duration { .seconds(15 * 60) }

    public func read(_ link: WithingsLink, accessToken: String, now: Date) async throws -> Batch {
        try await measureGroups(accessToken: accessToken, lastUpdate: link.lastUpdate)
    }

    public func keep(_ batch: Batch, link: inout WithingsLink, service: LocalHealthService,
                     now: Date, outcome: inout WithingsFetch) async throws {
        let weighIns = WithingsWeighIns(batch.groups, now: now)
        let added = try await save(weighIns, userID: link.userID, service: service, now: now)
        outcome.added = added
        outcome.alreadyThere = weighIns.weighIns.count - added
        outcome.skipped = weighIns.skippedText
        outcome.refused = weighIns.refusedGroups
        if let updateTime = batch.updateTime { link.lastUpdate = updateTime }
    }

    /// Stores the weigh-ins on the person's scale; returns how many were new.
    private func save(_ weighIns: WithingsWeighIns, userID: String, service: LocalHealthService, now: Date) async throws -> Int {
        guard !weighIns.weighIns.isEmpty else { return 0 }
        let scale = try await Self.scale(of: service)
        // Put, not posted unless stored: a group Withings changed (a weigh-in assigned to the person later)
        // replaces what its id held, and the way it came is kept, so a weigh-in that also arrives through a
        // phone is counted once.
        let writes = weighIns.weighIns.map { weighIn in
            ArrivalWrite.put(mid: WithingsWeighIns.mid(userID: userID, grpid: weighIn.grpid, timestamp: weighIn.timestamp),
                             message: NewMessage(sdid: scale.id, ts: weighIn.timestamp, data: weighIn.data))
        }
        return try await service.applyArrival(writes, path: .withings, now: now).filter { $0 == .added }.count
    }

    /// The person's scale, as an import finds it: their oldest Withings or generic scale, else a new "Scale".
    static func scale(of service: LocalHealthService) async throws -> Device {
        let scaleTypes = [BuiltInDeviceType.withings, .scale].map(\.deviceType.id)
        let scales = try await service.devices().enumerated()
            .filter { scaleTypes.contains($0.element.dtid) }
            .sorted { ($0.element.createdOn, $0.offset) < ($1.element.createdOn, $1.offset) }
        if let oldest = scales.first { return oldest.element }
        return try await service.addDevice(name: "Scale", typeID: BuiltInDeviceType.scale.deviceType.id)
    }
}

extension WithingsError: PulledRefusal {
    public var tokensNoLongerAccepted: Bool { isInvalidToken }
    public static var notAuthorized: WithingsError { WithingsError(action: "the call", status: 401, message: "not authorized") }
}

extension WithingsTokens: PulledTokens {}

extension PushLinkKind {
    /// A Withings account's scale (`GET|HEAD|POST /withings/SECRET`): the OAuth callback and the notification
    /// callback. Its client secret and tokens are in a `WithingsLinkFile`, not in the store.
    public static var withings: PushLinkKind { WithingsAPI.linkKind }
}
