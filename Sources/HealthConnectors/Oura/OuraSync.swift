import Foundation
import HealthCore
import HealthModel

/// What keeping one link's webhook subscriptions did.
public struct OuraSubscribing: Sendable, Equatable {
    public var linkID: String
    public var made = 0
    public var renewed = 0
    public var problems: [String] = []
}

/// Reads the nights of every Oura link into the store (`OuraAPI` as a `PulledSource`), and keeps each
/// link's webhook subscriptions, renewed before they expire.
public typealias OuraSync = PulledSync<OuraAPI>

extension OuraAPI {
    /// A subscription with less than this left is renewed: two days, so a server down for a day still renews in time.
    public static let renewMargin: TimeInterval = 2 * 24 * 3600
    /// What hmon subscribes to: a sleep or daily readiness document made or changed. Readiness has its own,
    /// because Oura often scores the day some time after the night's document arrived.
    static let subscribedEvents = notifiedDataTypes.sorted().flatMap { data in ["create", "update"].map { (event: $0, data: data) } }
    /// The documents whose notification has the link read at once.
    public static let notifiedDataTypes: Set<String> = ["sleep", "daily_readiness"]
}

extension PulledSync where Source == OuraAPI {
    /// Keeps every authorized link subscribed at `callbackURL(link)`: a subscription to each of `subscribedEvents`
    /// made when missing (or expired, or for another URL), renewed when it expires within `renewMargin`.
    public func subscribeAll(callbackURL: @Sendable (OuraLink) -> String?) async throws -> [OuraSubscribing] {
        let api = self.api
        return try await eachAuthorizedLink { (link: inout OuraLink) -> OuraSubscribing? in
            guard let url = callbackURL(link) else { return nil }
            return await Self.keepSubscribed(&link, at: url, api: api, now: clock())
        }.map(\.result).filter { $0.made + $0.renewed > 0 || !$0.problems.isEmpty }
    }

    private static func keepSubscribed(_ link: inout OuraLink, at url: String, api: OuraAPI, now: Date) async -> OuraSubscribing {
        var result = OuraSubscribing(linkID: link.linkID)
        var kept: [OuraSubscription] = []
        // One Oura no longer holds (expired) or for another address is made anew below.
        for subscription in link.subscriptions where subscription.callbackURL == url && subscription.expiresAt > now {
            guard subscription.expiresAt.timeIntervalSince(now) < OuraAPI.renewMargin else {
                kept.append(subscription)
                continue
            }
            do {
                kept.append(try await api.renew(subscription, clientID: link.clientID, clientSecret: link.clientSecret))
                result.renewed += 1
            } catch let error as OuraError where error.status == 404 {
                result.problems.append("\(error); subscribing again")
            } catch {
                kept.append(subscription)
                result.problems.append(words(error))
            }
        }
        for wanted in OuraAPI.subscribedEvents where !kept.contains(where: { $0.eventType == wanted.event && $0.dataType == wanted.data }) {
            do {
                kept.append(try await api.subscribe(clientID: link.clientID, clientSecret: link.clientSecret, callbackURL: url,
                                                    verificationToken: link.verificationToken, eventType: wanted.event, dataType: wanted.data))
                result.made += 1
            } catch {
                result.problems.append(words(error))
            }
        }
        link.subscriptions = kept
        return result
    }

    private static func words(_ error: any Error) -> String {
        if let error = error as? OuraError { return error.description }
        return unreachable(error)
    }
}
