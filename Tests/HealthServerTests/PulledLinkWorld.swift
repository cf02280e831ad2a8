import Foundation
import HealthConnectors
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What the Withings and Oura end-to-end worlds (`WithingsWorld`, `OuraWorld`) do alike with a real
/// `hmon serve` and a real `hmon link add KIND`, whatever the source.
enum PulledLinkWorld {
    /// Runs `hmon link add KIND` for alice, the client secret in a 0600 file; `answer` gets the source's
    /// authorization page (the printed line holding `pageMarker`) and returns what the person types back.
    static func linkAdd(kind: String, binary: URL, database: String, home: CommandHome, address: String,
                        clientID: String, clientSecret: String, sourceOptions: [String], pageMarker: String,
                        _ answer: (String) async throws -> String) async throws -> (status: Int32, output: String, errors: String) {
        let secretFile = home.folder.appendingPathComponent("\(kind)-secret")
        try Data((clientSecret + "\n").utf8).write(to: secretFile)
        chmod(secretFile.path, 0o600)
        let process = try SpawnedProcess(binary, ["link", "add", kind, "--db", database, "--user", "alice",
                                                  "--client-id", clientID, "--client-secret-file", secretFile.path,
                                                  "--base-url", address, "--allow-loopback"] + sourceOptions,
                                         environment: home.environment, input: .pipe)
        let line = await ServeCommandTests.firstLine(containing: pageMarker, in: process.output, orKill: process.pid)
        let page = try #require(line?.split(separator: " ").last.map(String.init), "hmon link add \(kind) printed no authorization page")
        process.write(try await answer(page))
        process.closeInput()
        let outputHandle = process.output, errorHandle = process.errors
        async let outputRead = ServeCommandTests.offThePool { outputHandle.readDataToEndOfFile() }
        async let errorsRead = ServeCommandTests.offThePool { errorHandle.readDataToEndOfFile() }
        let (output, errors) = await (outputRead, errorsRead)
        let status = await ServeCommandTests.waitForExit(process) ?? -1
        return (status, (line ?? "") + "\n" + String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// The person's browser on the authorization page, sent back to `hmon serve`, which trades the code
    /// itself and shows "Linked"; the command is then told with Enter.
    static func landOnTheServer(_ authorizeURL: String) async throws -> String {
        let answer = try await RawHTTP.send("GET", authorizeURL)
        let callback = try #require(answer.headers["Location"])
        let landed = try await RawHTTP.send("GET", callback)
        #expect(landed.status == 200)
        #expect(String(decoding: landed.body, as: UTF8.self).contains("Linked"))
        return "\n"
    }

    /// `POST /v1.1/hmon/KIND/poll` as the token's user: the dashboard's R.
    static func poll(kind: String, address: String, token: String) async throws -> [String: Any] {
        let answer = try await RawHTTP.send("POST", address + "/v1.1/hmon/\(kind)/poll", token: token)
        try #require(answer.status == 200, "poll answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
    }

    /// Stops the server (SIGTERM) and returns what it logged.
    static func stopAndReadLog(_ server: SpawnedProcess) async -> String {
        server.terminate()
        _ = await ServeCommandTests.waitForExit(server)
        let errors = server.errors
        return String(decoding: await ServeCommandTests.offThePool { errors.readDataToEndOfFile() }, as: UTF8.self)
    }

    /// The one link file in `files`' folder, or nil when there is none.
    static func linkFile<Link: PulledLink>(in files: PulledLinkFiles<Link>) throws -> Link? {
        guard let id = ((try? FileManager.default.contentsOfDirectory(atPath: files.folder.path)) ?? []).first(where: { $0.hasSuffix(".json") }) else {
            return nil
        }
        return try files.load(linkID: String(id.dropLast(5)))
    }
}
