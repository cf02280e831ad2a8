import Foundation
import TestSupport
import Testing

/// docs/home-assistant.md's `rest:` configuration, run as Home Assistant would run it against a real
/// `hmon serve` over a demo store: each resource's address (the doc's host replaced by the server's, today's
/// date put into a `resource_template`), its `Authorization` header from the doc's secret (a real personal
/// token after the word `Token`), each sensor's `value_template` and `json_attributes_path` followed as the
/// plain field paths the doc promises, and each figure checked against what hmon itself says; then the
/// views that do not change by the minute asked again with their `ETag`, for a 304.
@Suite(.heavy)
struct HomeAssistantDocTests {
    static let docHost = "http://hmon.lan:8080"

    @Test func theDocumentsRestSensorsReadTheirFiguresFromARealServer() async throws {
        let doc = try HomeAssistantDoc.read()
        #expect(doc.resources.count == 3)
        let world = try await ClientWorld.start("home-assistant")
        defer { world.stop() }
        let token = try await world.personalToken()
        let today = ClientWorld.localDate(Date())

        var figures: [String: Any] = [:]
        for resource in doc.resources {
            let address = try #require(resource.address(today: today), "a resource the test cannot fill in: \(resource.url)")
            #expect(address.hasPrefix(Self.docHost + "/v1.1/hmon/views/"), "\(address)")
            let url = world.address + address.dropFirst(Self.docHost.count)
            let secret = try #require(resource.secret, "\(resource.url) has no Authorization: !secret")
            let header = try #require(doc.secrets[secret], "secrets.yaml in the doc has no \(secret)")
            #expect(header.hasPrefix("Token "), "\(secret) is sent as \"Token …\"")
            let reply = try await RawHTTP.send("GET", url, headers: ["Authorization": "Token " + token])
            try #require(reply.status == 200, "\(url): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            let answer = try JSONSerialization.jsonObject(with: reply.body)
            for sensor in resource.sensors {
                let path = try #require(sensor.valuePath, "\(sensor.name): value_template is not a plain path")
                let value = try #require(HomeAssistantDoc.follow(path, in: answer), "\(sensor.name): nothing at \(path)")
                #expect(value is Double || value is Int, "\(sensor.name): \(value) is not a number")
                figures[sensor.name] = value
                let attributesPath = try #require(sensor.attributesPath, "\(sensor.name): no json_attributes_path")
                let attributes = try #require(HomeAssistantDoc.follow(attributesPath, in: answer) as? [String: Any],
                                              "\(sensor.name): no object at \(attributesPath)")
                for name in sensor.attributes {
                    #expect(attributes[name] != nil, "\(sensor.name): no attribute \(name) at \(attributesPath)")
                }
            }
            // Asked again with its ETag: the trend and the HRV are unchanged, so 304 and no body. Today's
            // energy counts the part of the day gone by, and is answered anew.
            if !address.contains("/energy?") {
                let etag = try #require(reply.header("ETag"), "\(url) has no ETag")
                let again = try await RawHTTP.send("GET", url, headers: ["Authorization": "Token " + token, "If-None-Match": etag])
                #expect(again.status == 304 && again.body.isEmpty, "\(url) with If-None-Match: \(again.status)")
            }
        }

        // The figures are hmon's own: the trend as `hmon trend --json` gives it (rounded to 10 g there), the
        // newest RMSSD as `hmon hrv list --json` lists it.
        let trendJSON = try await ClientWorld.hmon(world.binary, ["trend", "--json", "--db", world.database, "--user", ClientWorld.user],
                                                   input: "", environment: world.home.environment)
        let trend = try #require(HomeAssistantDoc.follow("summary.trendKg", in: try JSONSerialization.jsonObject(with: Data(trendJSON.utf8))) as? Double)
        let sensorTrend = try #require(figures["Weight trend"] as? Double)
        #expect(abs(sensorTrend - trend) <= 0.005, "sensor \(sensorTrend) kg, hmon trend \(trend) kg")
        let hrvJSON = try await ClientWorld.hmon(world.binary, ["hrv", "list", "--json", "--limit", "50", "--db", world.database, "--user", ClientWorld.user],
                                                 input: "", environment: world.home.environment)
        // The newest with an RMSSD: a watch's record whose beats were refused lists its own SDNN only.
        let newest = try #require((try JSONSerialization.jsonObject(with: Data(hrvJSON.utf8)) as? [[String: Any]])?.first { $0["rmssd"] != nil })
        #expect((figures["HRV latest"] as? Double) == newest["rmssd"] as? Double, "sensor \(figures["HRV latest"] ?? "none"), hrv list \(newest)")
        #expect(figures["Energy net today"] != nil)

        // The token reads figures, not the account's links, and writes nothing.
        let links = try await RawHTTP.send("GET", world.address + "/v1.1/hmon/views/sources", headers: ["Authorization": "Token " + token])
        #expect(links.status == 403, "the sources view with a personal token: \(links.status)")
        let post = try await RawHTTP.send("POST", world.address + "/v1.1/messages",
                                          headers: ["Authorization": "Token " + token, "Content-Type": "application/json"],
                                          body: Data(#"{"sdid": "x", "data": {"weight": 70}}"#.utf8))
        #expect(post.status == 401 || post.status == 403, "a write with a personal token: \(post.status)")
    }
}

/// The two YAML blocks of docs/home-assistant.md, read line by line: the doc keeps to the plain form this
/// reads (one key a line, two-space indents), which is Home Assistant's own documented form.
struct HomeAssistantDoc {
    struct Resource {
        var url: String
        var isTemplate: Bool
        var secret: String?
        var sensors: [Sensor] = []

        /// The address with today's date in place of the doc's one template expression.
        func address(today: String) -> String? {
            let filled = url.replacingOccurrences(of: "{{ now().strftime('%Y-%m-%d') }}", with: today)
            return filled.contains("{{") ? nil : filled
        }
    }

    struct Sensor {
        var name: String
        var valuePath: String?
        var attributesPath: String?
        var attributes: [String] = []
    }

    var resources: [Resource] = []
    /// `secrets.yaml`'s entries.
    var secrets: [String: String] = [:]

    static func read() throws -> HomeAssistantDoc {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/home-assistant.md"), encoding: .utf8)
        var doc = HomeAssistantDoc()
        let blocks = yamlBlocks(text)
        let configuration = try #require(blocks.first { $0.first == "rest:" }, "no ```yaml block starting with rest:")
        for line in blocks.filter({ $0.first?.hasPrefix("hmon_") == true }).joined() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            doc.secrets[String(line[..<colon])] = unquoted(line[line.index(after: colon)...])
        }
        var inAttributes = false
        for line in configuration.dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let url = value(trimmed, "- resource:") {
                doc.resources.append(Resource(url: url, isTemplate: false))
            } else if let url = value(trimmed, "- resource_template:") {
                doc.resources.append(Resource(url: url, isTemplate: true))
            } else if let secret = value(trimmed, "Authorization:"), secret.hasPrefix("!secret ") {
                doc.resources[doc.resources.count - 1].secret = String(secret.dropFirst("!secret ".count))
            } else if let name = value(trimmed, "- name:") {
                doc.resources[doc.resources.count - 1].sensors.append(Sensor(name: name))
                inAttributes = false
            } else if let template = value(trimmed, "value_template:") {
                lastSensor(&doc) { $0.valuePath = path(ofTemplate: template) }
            } else if let path = value(trimmed, "json_attributes_path:") {
                lastSensor(&doc) { $0.attributesPath = path.hasPrefix("$.") ? String(path.dropFirst(2)) : nil }
            } else if trimmed == "json_attributes:" {
                inAttributes = true
            } else if inAttributes, trimmed.hasPrefix("- ") {
                lastSensor(&doc) { $0.attributes.append(String(trimmed.dropFirst(2))) }
            } else {
                inAttributes = false
            }
        }
        return doc
    }

    /// `{{ value_json.data.summary.trendKg }}` → `data.summary.trendKg`; nil for anything else.
    static func path(ofTemplate template: String) -> String? {
        let inner = template.trimmingCharacters(in: .whitespaces)
        guard inner.hasPrefix("{{"), inner.hasSuffix("}}") else { return nil }
        let expression = inner.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces)
        guard expression.hasPrefix("value_json."), !expression.contains("|"), !expression.contains(" ") else { return nil }
        return String(expression.dropFirst("value_json.".count))
    }

    /// Follows `a.b[0].c` into a JSON value.
    static func follow(_ path: String, in json: Any) -> Any? {
        var current: Any? = json
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var index: Int?
            if let open = part.firstIndex(of: "["), part.hasSuffix("]") {
                name = part[..<open]
                index = Int(part[part.index(after: open)..<part.index(before: part.endIndex)])
                if index == nil { return nil }
            }
            current = (current as? [String: Any])?[String(name)]
            if let index {
                guard let array = current as? [Any], array.indices.contains(index) else { return nil }
                current = array[index]
            }
        }
        return current
    }

    private static func lastSensor(_ doc: inout HomeAssistantDoc, _ change: (inout Sensor) -> Void) {
        guard !doc.resources.isEmpty, !doc.resources[doc.resources.count - 1].sensors.isEmpty else { return }
        let r = doc.resources.count - 1, s = doc.resources[r].sensors.count - 1
        change(&doc.resources[r].sensors[s])
    }

    private static func value(_ line: String, _ key: String) -> String? {
        guard line.hasPrefix(key) else { return nil }
        return unquoted(line.dropFirst(key.count))
    }

    private static func unquoted(_ text: Substring) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        return value
    }

    /// The lines of each ```yaml block.
    private static func yamlBlocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```yaml" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }
}
