import Foundation
import HealthCore
import Hummingbird

/// `POST /v1.1/hmon/links/poll`: reads every linked source of the caller now (a remote dashboard's R), in
/// one request however many kinds of link the server reads; answers what each added, under its kind. A
/// kind the server was started without (no settings for it) is absent from the answer.
struct LinkedSourcesPollRoute: Sendable {
    let sources: [any LinkedSourcePoll]

    func add(to router: Router<ServerContext>) {
        let sources = self.sources
        router.post("/v1.1/hmon/links/poll") { _, context -> Response in
            guard let principal = context.principal else { throw APIError.unauthorized }
            guard let userID = principal.userID, principal.scopes.contains(Scope.read) else { throw APIError.forbidden }
            var answer = LinkedSourcesPollAnswer(added: 0, kinds: [])
            for source in sources {
                let (added, kindAnswer) = try await source.poll(userID: userID)
                answer.added += added
                answer.kinds.append((source.kindName, kindAnswer))
            }
            return JSONBody.response(answer)
        }
    }
}

/// The answer of `POST /v1.1/hmon/links/poll`: the readings added in all, and each kind's own answer under
/// its kind's name (`"withings": {…}`), in the order the server reads them.
struct LinkedSourcesPollAnswer: Encodable {
    var added: Int
    var kinds: [(name: String, answer: any Encodable & Sendable)]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(added, forKey: Key(stringValue: "added"))
        for (name, answer) in kinds { try container.encode(answer, forKey: Key(stringValue: name)) }
    }
}
