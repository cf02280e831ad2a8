import Foundation
import TOMLKit

/// The `[[alerts]]` tables of config.toml, which `hmon serve` watches and `hmon alert` lists and tests:
///
/// ```toml
/// [[alerts]]
/// name = "hrv-low"                 # letters, digits, - and _: what `hmon alert test` takes
/// when = "hrv-below-normal"        # or link-silent, weight-goal, resting-heart-rate-high
/// days = 2                         # hrv-below-normal, resting-heart-rate-high (default 2)
/// ntfy = "https://ntfy.sh/my-secret-topic"
/// priority = "high"                # ntfy's: min, low, default, high, urgent
///
/// [[alerts]]
/// name = "scale-quiet"
/// when = "link-silent"
/// hours = 36
/// user = "ana"                     # whose data; left out, the store's only user
/// webhook = "https://example.org/hook"
/// secret-file = "/etc/hmon/hook.secret"   # signs each body, as the push links are signed
/// ```
///
/// A rule that cannot be used stops the server at start with the rule and what to write instead: an alert
/// that silently never fires is worse than none.
public enum AlertRulesFile {
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String

        public init(description: String) { self.description = description }
    }

    public static let ntfyPriorities = ["min", "low", "default", "high", "urgent"]

    /// The rules of the file at `file`; none when it does not exist or has no `[[alerts]]`.
    public static func load(from file: URL) throws(Problem) -> [AlertRule] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        guard let data = FileManager.default.contents(atPath: file.path), let text = String(data: data, encoding: .utf8) else {
            throw Problem(description: "\(file.path): cannot be read as UTF-8 text: fix its permissions or save it as UTF-8")
        }
        return try parse(text, file: file.path) { path in
            try String(contentsOfFile: path, encoding: .utf8)
        }
    }

    /// The rules of config.toml's text; `readSecret` reads a `secret-file`.
    public static func parse(_ text: String, file: String, readSecret: (String) throws -> String) throws(Problem) -> [AlertRule] {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Problem(description: "\(file):\(error.source.begin.line): \(error.description): fix or remove the line")
        } catch {
            throw Problem(description: "\(file): \(error): fix the file")
        }
        guard let value = table["alerts"] else { return [] }
        guard let array = value.array else {
            throw Problem(description: "\(file): alerts must be tables, each starting with a [[alerts]] line")
        }
        var rules: [AlertRule] = []
        for (index, element) in array.enumerated() {
            guard let entry = element.table else {
                throw Problem(description: "\(file): alert \(index + 1) is not a table: start each with a [[alerts]] line")
            }
            var reading = Entry(table: entry, place: "\(file): [[alerts]] number \(index + 1)")
            let rule = try reading.rule(readSecret: readSecret)
            if rules.contains(where: { $0.name == rule.name }) {
                throw Problem(description: "\(file): two alerts are named \"\(rule.name)\": give each its own name")
            }
            rules.append(rule)
        }
        return rules
    }

    /// One `[[alerts]]` table being read, with where it is for messages.
    private struct Entry {
        let table: TOMLTable
        var place: String

        func problem(_ text: String) -> Problem { Problem(description: "\(place): \(text)") }

        func string(_ key: String) throws(Problem) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string, !text.isEmpty else { throw problem("\(key) must be text in quotes") }
            return text
        }

        func number(_ key: String, default fallback: Double, in range: ClosedRange<Double>, example: String) throws(Problem) -> Double {
            guard let value = table[key] else { return fallback }
            guard let number = value.double ?? value.int.map(Double.init), range.contains(number) else {
                throw problem("\(key) must be a number from \(AlertChecks.whole(range.lowerBound)) to \(AlertChecks.whole(range.upperBound)), like \(example)")
            }
            return number
        }

        mutating func rule(readSecret: (String) throws -> String) throws(Problem) -> AlertRule {
            guard let name = try string("name") else { throw problem("has no name: add one, like name = \"hrv-low\"") }
            guard name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw problem("name \"\(name.prefix(64))\" must be letters, digits, - and _ (up to 64), like name = \"hrv-low\"")
            }
            place += " (\"\(name)\")"
            let known = Set(["name", "when", "days", "hours", "bpm", "link", "user", "ntfy", "priority", "webhook", "secret-file"])
            if let unknown = table.keys.sorted().first(where: { !known.contains($0) }) {
                throw problem("\(unknown) is not a setting of an alert (they are: \(known.sorted().joined(separator: ", ")))")
            }
            let condition = try self.condition()
            return AlertRule(name: name, condition: condition, user: try string("user"), destination: try destination(readSecret: readSecret))
        }

        func condition() throws(Problem) -> AlertRule.Condition {
            let kinds = ["hrv-below-normal", "link-silent", "weight-goal", "resting-heart-rate-high"]
            switch try string("when") {
            case "hrv-below-normal":
                return .hrvBelowNormal(days: Int(try number("days", default: 2, in: 1...14, example: "days = 2")))
            case "link-silent":
                return .linkSilent(hours: try number("hours", default: 24, in: 1...8760, example: "hours = 36"), link: try string("link"))
            case "weight-goal":
                return .weightGoalReached
            case "resting-heart-rate-high":
                return .restingHeartRateAbove(bpm: try number("bpm", default: 5, in: 1...60, example: "bpm = 5"),
                                              days: Int(try number("days", default: 2, in: 1...14, example: "days = 2")))
            case let other?:
                throw problem("when = \"\(other)\" is not a rule: use one of \(kinds.joined(separator: ", "))")
            case nil:
                throw problem("has no when: add one of \(kinds.map { "when = \"\($0)\"" }.joined(separator: ", "))")
            }
        }

        func destination(readSecret: (String) throws -> String) throws(Problem) -> AlertRule.Destination {
            let ntfy = try string("ntfy"), webhook = try string("webhook")
            switch (ntfy, webhook) {
            case (let topic?, nil):
                guard let url = Self.httpURL(topic) else { throw problem("ntfy \"\(topic)\" is not an http(s) topic URL, like ntfy = \"https://ntfy.sh/my-topic\"") }
                let priority = try string("priority") ?? "default"
                guard ntfyPriorities.contains(priority) else {
                    throw problem("priority \"\(priority)\" is not one of ntfy's: \(ntfyPriorities.joined(separator: ", "))")
                }
                return .ntfy(url, priority: priority)
            case (nil, let address?):
                guard let url = Self.httpURL(address) else { throw problem("webhook \"\(address)\" is not an http(s) URL") }
                var secret: String?
                if let path = try string("secret-file") {
                    do {
                        secret = try readSecret(path).trimmingCharacters(in: .whitespacesAndNewlines)
                    } catch {
                        throw problem("secret-file \(path) cannot be read: make it a file of the secret, readable by the server")
                    }
                    guard let secret, secret.count >= 16 else { throw problem("secret-file \(path) holds under 16 characters: use a long random secret") }
                }
                return .webhook(url, secret: secret)
            case (nil, nil):
                throw problem("says nowhere to send it: add ntfy = \"https://ntfy.sh/TOPIC\" or webhook = \"https://…\"")
            case (_?, _?):
                throw problem("has both ntfy and webhook: give each its own [[alerts]]")
            }
        }

        static func httpURL(_ text: String) -> URL? {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false else { return nil }
            return url
        }
    }
}
