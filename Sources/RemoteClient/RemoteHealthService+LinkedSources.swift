import Foundation
import HealthCore
import HealthModel

/// R on a dashboard connected to `hmon serve`: `POST /v1.1/hmon/links/poll` reads all of the user's
/// linked sources (Withings, Oura) at once and answers how many readings they added (0 for a user with no
/// link), in one request. A server from before that route is asked per kind, as it was then.
extension RemoteHealthService: LinkedSourcePolling {
    private struct PollAnswer: Decodable {
        var added: Int
    }

    public func pollLinkedSources() async throws -> Int {
        let all = try await authorizedReply("POST", "/v1.1/hmon/links/poll")
        if (200..<300).contains(all.status) { return try decode(PollAnswer.self, all).added }
        guard all.status == 404 else { throw problem(all, subject: .none) }
        let withings: PollAnswer = try await authorizedCall("POST", "/v1.1/hmon/withings/poll")
        // A server from before Oura's links answers 404 here: it has none to read, which is no failure of R.
        let oura = try await authorizedReply("POST", "/v1.1/hmon/oura/poll")
        if oura.status == 404 { return withings.added }
        guard (200..<300).contains(oura.status) else { throw problem(oura, subject: .none) }
        return withings.added + (try decode(PollAnswer.self, oura)).added
    }
}
