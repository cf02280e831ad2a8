import Foundation
import HealthCore
import HealthModel
import HealthServer
import TestSupport
import Testing

/// Issue 16, item 5 (the server's part): when another program holds the store's write lock past the busy
/// timeout, a write is answered 503 with `Retry-After` in the contract's error envelope — not a bare 500 —
/// and the same request goes through once the lock is released.
@Suite(.heavy) struct StoreBusyTests {
    @Test(.enabled(if: InstalledTool.path(of: "sqlite3") != nil, "needs the sqlite3 command to hold the store's write lock from another process"))
    func aWriteWhileAnotherProgramHoldsTheLockIsAnswered503WithRetryAfter() async throws {
        let sqlite3 = try #require(InstalledTool.path(of: "sqlite3"))
        try await ServerWorld.run { world in
            let token = try await world.token()
            // A real second connection, in another process, holding the write lock.
            let holder = try SpawnedProcess(sqlite3, [world.sqlite.path], input: .pipe)
            defer { holder.terminate() }
            holder.write("BEGIN IMMEDIATE;\nSELECT 'locked';\n")
            _ = try #require(await ServeCommandTests.firstLine(containing: "locked", in: holder.output, orKill: holder.pid),
                             "sqlite3 did not take the write lock")

            let body = #"{"sdid":"\#(world.aliceScale.id)","ts":1700000000000,"data":{"weight":71.5}}"#
            let started = Date()
            // Sent raw: the server waits out its 10 s busy timeout, longer than the test client's own.
            let port = world.server.port
            let answer = try await ServeCommandTests.offThePool {
                Result {
                    let connection = try RawConnection(port: port)
                    try connection.send("POST /v1.1/messages HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
                    return connection.readResponse(timeout: 30) ?? ""
                }
            }.get()
            let head = answer.components(separatedBy: "\r\n\r\n").first?.lowercased() ?? ""
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
            #expect(head.contains("\r\nretry-after: 2"))
            let envelope = answer.components(separatedBy: "\r\n\r\n").dropFirst().first.flatMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: [String: Any]]
            }?["error"]
            #expect(envelope?["code"] as? Int == 503)
            #expect(envelope?["message"] as? String == "The store is busy: try again shortly")
            // It waited for the lock (the busy timeout, 10 s) before giving up.
            #expect(Date().timeIntervalSince(started) >= 9)
            #expect(try await world.store.lastMessages(deviceID: world.aliceScale.id, userID: world.alice.id, count: 10).isEmpty)

            holder.write("ROLLBACK;\n.quit\n")
            holder.closeInput()
            _ = await ServeCommandTests.waitForExit(holder)
            let retried = try await world.post("/v1.1/messages", token: token, json: body)
            #expect(retried.status == 200)
            #expect(try await world.store.lastMessages(deviceID: world.aliceScale.id, userID: world.alice.id, count: 10).count == 1)
        }
    }
}
