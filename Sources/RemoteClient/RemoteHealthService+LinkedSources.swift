import Foundation
import HealthCore
import HealthModel

/// R on a dashboard connected to `hmon serve`: `POST /v1.1/hmon/withings/poll` reads the user's Withings
/// links at once and answers how many weigh-ins it added (0 for a user with no link).
extension RemoteHealthService: LinkedSourcePolling {
    private struct PollAnswer: Decodable {
        var added: Int
    }

    public func pollLinkedSources() async throws -> Int {
        let answer: PollAnswer = try await authorizedCall("POST", "/v1.1/hmon/withings/poll")
        return answer.added
    }
}
