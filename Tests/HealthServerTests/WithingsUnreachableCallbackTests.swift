import Foundation
import HealthCore
import Testing
import TestSupport

/// The Withings callback is a page a person's browser shows: when Withings cannot be reached to trade the
/// code, that page says so (502), never the API's JSON 500.
@Suite struct WithingsUnreachableCallbackTests {
    @Test func withWithingsUnreachableTheCallbackAnswersItsPageWithWhatToDo() async throws {
        let world = try await WithingsWorld.start(groups: [], publicURL: false, unreachableAPI: true)
        defer { world.stop() }
        var landed: Reply?
        _ = try await world.linkAdd { authorizeURL in
            let answer = try await RawHTTP.send("GET", authorizeURL)
            let callback = try #require(answer.headers["Location"])
            landed = try await RawHTTP.send("GET", callback)
            return "\n"
        }
        let reply = try #require(landed)
        let page = String(decoding: reply.body, as: UTF8.self)
        #expect(reply.status == 502, "\(reply.status): \(page)")
        #expect(reply.headers["Content-Type"]?.hasPrefix("text/html") == true, "\(reply.headers)")
        #expect(page.contains("Not linked") && page.contains("cannot reach Withings"), "\(page)")
        #expect(page.contains("run `hmon link add withings` again"), "\(page)")
        #expect(await world.isServing())
    }
}
