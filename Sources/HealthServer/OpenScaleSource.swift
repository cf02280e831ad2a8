import Foundation
import HealthConnectors
import HealthCore
import HealthModel

/// openScale-sync's webhook (`PushRoutes`): `POST /openscale/{secret}`, the link `hmon link add openscale`
/// prints. Each change of the scale app's database, so hmon stays in step with it (`OpenScaleEvent`,
/// `OpenScaleArrival`); a `test` is a 200 that keeps nothing.
struct OpenScaleSource: PushSource {
    static let kind = PushLinkKind.openScale
    static let prefix = "/openscale/"
    static let appName = "openScale"
    /// A bulk post of a long history is at most a few MB.
    static let maxBodyBytes = 16 * 1024 * 1024
    static let signing = PushSigning.notByTheApp(
        why: "openScale-sync cannot sign its posts (it sends at most an Authorization header)")

    static func payload(of body: Data) throws -> OpenScaleEvent {
        do {
            return try OpenScaleEvent(json: body)
        } catch {
            throw PushBodyProblem(problem: error.problem)
        }
    }

    static func writes(_ event: OpenScaleEvent) -> Bool { event != .test }

    /// A link follows one openScale user, the first it hears from unless `hmon link add openscale --openscale-user`
    /// named one: openScale keeps several people per phone, and another's weigh-ins are not this person's.
    static func keep(_ event: OpenScaleEvent, service: LocalHealthService, delivery: PushDelivery) async throws -> OpenScaleArrival.Tally {
        var following = delivery.link?.sourceUser
        if following == nil, let link = delivery.link, let first = event.scaleUsers.first {
            following = try await delivery.links.followSourceUser(first, linkID: link.linkID)
        }
        return try await OpenScaleArrival.apply(event, service: service, userID: delivery.userID, following: following, now: delivery.now)
    }

    static func arrival(of tally: OpenScaleArrival.Tally) -> LinkArrival {
        LinkArrival(readings: [ReadingKind.weight.name: tally.added + tally.changed],
                    refusals: tally.refusals + LinkArrival.lines(tally.skipped, prefix: "skipped: "))
    }
}
