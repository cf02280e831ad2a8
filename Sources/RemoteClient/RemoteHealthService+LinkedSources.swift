import Foundation
import HealthConnectors
import HealthCore
import HealthModel

/// R on a dashboard connected to `hmon serve`: `POST /v1.1/hmon/links/poll` reads all of the user's
/// linked sources at once and answers how many readings they added (0 for a user with no link), in one
/// request. A server from before that route is asked per source of `PulledSources`, as it was then.
extension RemoteHealthService: LinkedSourcePolling {
    private struct PollAnswer: Decodable {
        var added: Int
    }

    public func pollLinkedSources() async throws -> Int {
        let all = try await authorizedReply("POST", "/v1.1/hmon/links/poll")
        if (200..<300).contains(all.status) { return try decode(PollAnswer.self, all).added }
        guard all.status == 404 else { throw problem(all, subject: .none) }
        var added = 0
        for source in PulledSources.served {
            let reply = try await authorizedReply("POST", source.pollPath)
            // A server that does not read this source (started without its settings, or from before it) answers
            // 404: it has none of its links to read, which is no failure of R.
            if reply.status == 404 { continue }
            guard (200..<300).contains(reply.status) else { throw problem(reply, subject: .none) }
            added += try decode(PollAnswer.self, reply).added
        }
        return added
    }
}
