/// Reads the new weigh-ins of every Withings link into the store (`WithingsAPI` as a `PulledSource`), and
/// subscribes the links to Withings' notifications.
public typealias WithingsSync = PulledSync<WithingsAPI>

extension PulledSync where Source == WithingsAPI {
    /// Subscribes every authorized link to notifications at `callbackURL(link)` (once per URL).
    public func subscribeAll(callbackURL: @Sendable (WithingsLink) -> String?) async throws -> [(linkID: String, problem: String?)] {
        let api = self.api
        return try await eachAuthorizedLink { (link: inout WithingsLink) -> String?? in
            guard let url = callbackURL(link), link.subscribedURL != url else { return nil }
            do {
                try await withFreshToken(&link) { token in try await api.subscribe(accessToken: token, callbackURL: url) }
                link.subscribedURL = url
                return .some(nil)
            } catch {
                return .some(String(describing: error))
            }
        }.map { ($0.linkID, $0.result) }
    }
}
