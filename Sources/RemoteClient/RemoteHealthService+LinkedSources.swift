import Foundation
import HealthCore
import HealthModel

/// R on a dashboard connected to `hmon serve`: `POST /v1.1/hmon/withings/poll` and `POST /v1.1/hmon/oura/poll`
/// read the user's Withings and Oura links at once and answer how many readings they added (0 for a user
/// with no link).
extension RemoteHealthService: LinkedSourcePolling {
    private struct PollAnswer: Decodable {
        var added: Int
    }

    public func pollLinkedSources() async throws -> Int {
        let withings: PollAnswer = try await authorizedCall("POST", "/v1.1/hmon/withings/poll")
        // A server from before Oura's links answers 404 here: it has none to read, which is no failure of R.
        let oura = try await authorizedReply("POST", "/v1.1/hmon/oura/poll")
        if oura.status == 404 { return withings.added }
        guard (200..<300).contains(oura.status) else { throw problem(oura, subject: .none) }
        return withings.added + (try decode(PollAnswer.self, oura)).added
    }
}
