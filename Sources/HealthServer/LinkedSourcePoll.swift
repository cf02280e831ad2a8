import Foundation
import HealthConnectors

/// One pulled source the server reads, as `POST /v1.1/hmon/links/poll` asks it: by its kind, for what
/// reading the user's links added and its own poll route's answer.
protocol LinkedSourcePoll: Sendable {
    var kindName: String { get }
    func poll(userID: String) async throws -> (added: Int, answer: any Encodable & Sendable)
}

extension PulledPolling: LinkedSourcePoll {
    var kindName: String { Source.Link.kindName }

    func poll(userID: String) async throws -> (added: Int, answer: any Encodable & Sendable) {
        let fetches = try await PulledLinkRoutes<Source>.fetches(self, userID: userID)
        return (fetches.map(\.added).reduce(0, +), Source.pollAnswer(fetches))
    }
}
