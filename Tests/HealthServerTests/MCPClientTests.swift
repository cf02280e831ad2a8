import Foundation
import TestSupport
import Testing

/// `hmon mcp` driven by the Model Context Protocol's official Python SDK (`mcp_client.py`), as an assistant app
/// starts it: over stdio, on a demo store made by the built `hmon`. The script prints what the server answered;
/// this checks it: every tool listed with its arguments' schema, every tool and resource answering, `trend`
/// giving what `hmon trend --json` gives, bad arguments answered as the tool's error while the server goes on,
/// and the store not written.
@Suite(.heavy, .enabled(if: ThirdPartyClients.python != nil, Comment(rawValue: ThirdPartyClients.missing)))
struct MCPClientTests {
    static let tools = ["overview", "trend", "energy", "hrv", "sleep", "insights", "readings"]

    @Test func theOfficialPythonClientListsAndCallsEveryToolOfHmonMCP() async throws {
        let binary = try ServeCommandTests.hmonBinary()
        let home = try CommandHome("mcp-client")
        defer { home.remove() }
        let database = home.folder.appendingPathComponent("hmon.sqlite").path
        _ = try await ClientWorld.hmon(binary, ["demo", "--db", database], input: "", environment: home.environment)
        let trendArguments = ["trend", "--json", "--db", database, "--user", ClientWorld.user]
        let trendBefore = try await ClientWorld.hmon(binary, trendArguments, input: "", environment: home.environment)
        let storeBefore = try StoreFiles(database)

        let run = try await Self.runClient(environment: home.environment.merging([
            "HMON_BINARY": binary.path, "HMON_DB": database, "HMON_USER": ClientWorld.user,
        ]) { _, given in given })
        try #require(run.status == 0, "mcp_client.py exited \(run.status):\n\(run.errors)\n\(run.output.prefix(2_000))")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
                                  "mcp_client.py printed no JSON object: \(run.output.prefix(2_000))")

        // Every tool listed, each with an object schema of its arguments and marked as only reading.
        let listed = try #require(report["tools"] as? [[String: Any]])
        #expect(listed.compactMap { $0["name"] as? String } == Self.tools)
        for tool in listed {
            let schema = try #require(tool["inputSchema"] as? [String: Any], "\(tool["name"] ?? "?") has no schema")
            #expect(schema["type"] as? String == "object")
            #expect(schema["additionalProperties"] as? Bool == false)
            #expect(schema["properties"] is [String: Any])
            #expect(tool["readOnly"] as? Bool == true, "\(tool["name"] ?? "?") is not marked read-only")
            #expect(!((tool["description"] as? String) ?? "").isEmpty)
        }
        let trendSchema = try #require((listed.first { $0["name"] as? String == "trend" })?["inputSchema"] as? [String: Any])
        let days = try #require((trendSchema["properties"] as? [String: Any])?["days"] as? [String: Any])
        #expect(days["type"] as? String == "integer" && days["minimum"] as? Int == 1 && days["default"] as? Int == 365)
        let readingsSchema = try #require((listed.first { $0["name"] as? String == "readings" })?["inputSchema"] as? [String: Any])
        let kinds = ((readingsSchema["properties"] as? [String: Any])?["kind"] as? [String: Any])?["enum"] as? [String]
        #expect(kinds?.contains("weight") == true && kinds?.contains("sleep") == true)

        // Every tool answers with structured JSON.
        let calls = try #require(report["calls"] as? [String: [String: Any]])
        for (label, call) in calls {
            #expect(call["isError"] as? Bool == false, "\(label): \(call["texts"] ?? "")")
            #expect(call["structured"] is [String: Any], "\(label) gave no structured JSON")
        }

        // The trend is `hmon trend --json`'s, figure for figure (again after the calls, should a day have turned).
        let mcpTrend = try #require(calls["trend"]?["structured"] as? NSDictionary)
        let trendAfter = try await ClientWorld.hmon(binary, trendArguments, input: "", environment: home.environment)
        let printed = try [trendBefore, trendAfter].map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary }
        #expect(printed.contains(mcpTrend), "trend tool: \(mcpTrend)\nhmon trend --json: \(trendBefore)")
        let summary = try #require(mcpTrend["summary"] as? [String: Any])
        #expect(summary["trendKg"] is Double, "the demo has a trend")
        // The text beside it is `hmon trend`'s.
        let trendText = try await ClientWorld.hmon(binary, ["trend", "--db", database, "--user", ClientWorld.user], input: "",
                                                   environment: home.environment)
        let texts = try #require(calls["trend"]?["texts"] as? [String])
        #expect(texts.count == 2 && texts.last?.trimmingCharacters(in: .newlines) == trendText.trimmingCharacters(in: .newlines))

        // The other tools' answers hold what they say they hold.
        let energy = try #require(calls["energy"]?["structured"] as? [String: Any])
        #expect((energy["days"] as? [Any])?.count == 1)
        #expect(((calls["energy_span"]?["structured"] as? [String: Any])?["days"] as? [Any])?.count == 7)
        let hrv = try #require(calls["hrv"]?["structured"] as? [String: Any])
        #expect(hrv["latest"] is [String: Any] && hrv["baseline"] is [String: Any], "the demo has HRV: \(hrv)")
        let readings = try #require(calls["readings"]?["structured"] as? [String: Any])
        let weighIns = try #require(readings["readings"] as? [[String: Any]])
        #expect(!weighIns.isEmpty && weighIns.count <= 5)
        #expect(weighIns.allSatisfy { ($0["values"] as? [String: Any])?["weight"] is Double })
        #expect(((calls["insights"]?["structured"] as? [String: Any])?["correlations"] as? [Any])?.isEmpty == false)
        #expect(((calls["sleep"]?["structured"] as? [String: Any])?["nights"]) is [Any])
        // The sleep tool is `hmon sleep --json`'s document over the same days.
        let sleepPrinted = try await ClientWorld.hmon(binary, ["sleep", "--json", "--days", "7", "--db", database, "--user", ClientWorld.user],
                                                      input: "", environment: home.environment)
        let mcpSleep = try #require(calls["sleep"]?["structured"] as? NSDictionary)
        #expect(try JSONSerialization.jsonObject(with: Data(sleepPrinted.utf8)) as? NSDictionary == mcpSleep,
                "sleep tool: \(mcpSleep)\nhmon sleep --json: \(sleepPrinted.prefix(1_000))")
        let overview = try #require(calls["overview"]?["structured"] as? NSDictionary)
        #expect(overview["trend"] as? NSDictionary == mcpTrend["summary"] as? NSDictionary)

        // The same views as resources.
        let resources = try #require(report["resources"] as? [[String: Any]])
        #expect(resources.compactMap { $0["uri"] as? String }
            == ["hmon://overview", "hmon://trend", "hmon://energy/today", "hmon://hrv", "hmon://sleep", "hmon://insights"])
        let reads = try #require(report["reads"] as? [String: [Any]])
        #expect(reads.count == resources.count)
        #expect((reads["hmon://trend"]?.first as? NSDictionary).map { printed.contains($0) } == true)
        #expect(reads.values.allSatisfy { $0.count == 1 && $0.first is [String: Any] })

        // Bad arguments: the tool's error, in words that name the argument, and the server goes on.
        let bad = try #require(report["badArguments"] as? [String: [String: Any]])
        let expected = ["trendDaysZero": "days must be 1–3650, got 0", "readingsUnknownKind": "kind must be one of",
                        "energyNotADay": "day must be a day as YYYY-MM-DD", "unknownArgument": "unknown argument \"write\""]
        for (label, words) in expected {
            let answer = try #require(bad[label], "no answer to \(label)")
            #expect(answer["isError"] as? Bool == true, "\(label): \(answer)")
            #expect(((answer["texts"] as? [String])?.first ?? "").contains(words), "\(label): \(answer)")
        }
        let unknown = try #require(report["unknownTool"] as? [String: Any])
        #expect((unknown["error"] as? String)?.contains("no tool delete_readings") == true, "\(unknown)")
        #expect(unknown["code"] as? Int == -32602)
        #expect((report["afterErrors"] as? [String: Any])?["structured"] as? NSDictionary == mcpTrend)

        // Nothing was written: the store's file is as it was, byte for byte, and was not touched.
        #expect(try StoreFiles(database) == storeBefore)
    }

    /// Runs `mcp_client.py`; its exit status, what it printed (the report) and its standard error.
    static func runClient(environment: [String: String]) async throws -> (status: Int32, output: String, errors: String) {
        let python = try #require(ThirdPartyClients.python)
        var environment = environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let child = try SpawnedProcess(python, [ThirdPartyClients.scripts.appendingPathComponent("mcp_client.py").path],
                                       environment: environment)
        let killer = Waiting.killing(child.pid, after: ClientWorld.scriptTimeout)
        defer { killer.cancel() }
        let (output, errors) = (child.output, child.errors)
        async let printed = ServeCommandTests.offThePool { output.readDataToEndOfFile() }
        async let said = ServeCommandTests.offThePool { errors.readDataToEndOfFile() }
        let (out, err) = await (printed, said)
        let status = await ServeCommandTests.waitForExit(child) ?? -1
        return (status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// A store file's bytes and modification time, and its write-ahead log's bytes if it has one.
    struct StoreFiles: Equatable {
        var bytes: Data
        var modified: Date?
        var log: Data?

        init(_ path: String) throws {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            // An empty log is no log: opening a store may leave one that holds nothing.
            log = FileManager.default.contents(atPath: path + "-wal").flatMap { $0.isEmpty ? nil : $0 }
        }
    }
}
