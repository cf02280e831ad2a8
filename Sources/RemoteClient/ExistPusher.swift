import Foundation
import CheckedNumbers
import HealthCore
import HealthModel

/// `hmon exist push`: a client of Exist's API v2 (Exist itself, or another `hmon serve`) that acquires the
/// attributes it writes, sends `ExistPushPlan`'s values with `update` in batches of 35, re-acquires once
/// when the server answers `unauthorised` (the user gave the attribute to another app), waits out a 429 as
/// long as `Retry-After` or the rate-limit reset says, and remembers in the store what the server accepted.
public struct ExistPusher: Sendable {
    public struct Options: Sendable {
        public var server: URL
        public var token: String
        /// Send every day from here on, sent before or not; nil: every day whose value was not sent before.
        public var since: Day?
        public var dryRun: Bool
        public var now: Date
        public var calendar: Calendar
        /// How the pusher waits for a rate limit (the tests move a clock instead).
        public var sleep: @Sendable (Double) async throws -> Void
        /// The most seconds one wait may last before the push gives up.
        public var longestWait: Double

        public init(server: URL, token: String, since: Day? = nil, dryRun: Bool = false, now: Date = Date(),
                    calendar: Calendar = .current, longestWait: Double = 3_700,
                    sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }) {
            self.server = server
            self.token = token
            self.since = since
            self.dryRun = dryRun
            self.now = now
            self.calendar = calendar
            self.longestWait = longestWait
            self.sleep = sleep
        }
    }

    /// How the push went, per attribute and in requests.
    public struct Summary: Sendable, Equatable {
        public struct Counts: Sendable, Equatable {
            public var sent = 0
            public var unchanged = 0
            public var failed = 0

            public init() {}
        }

        public var counts: [InsightAttribute: Counts] = [:]
        public var requests = 0
        public var rateLimitWaits = 0
        /// The first few failures in words ("weight 2024-01-05: validation: …").
        public var problems: [String] = []
        /// With `dryRun`: what would be sent.
        public var planned: [ExistPushPlan.Value] = []
    }

    public static let batchSize = 35

    let service: LocalHealthService
    let options: Options
    private let transport: HTTPTransport

    /// - Parameter service: acting for the person whose days are pushed.
    public init(service: LocalHealthService, options: Options) {
        self.service = service
        self.options = options
        transport = HTTPTransport(server: options.server, timeout: 60)
    }

    /// The key the store remembers pushes under: the server as typed, without a trailing slash.
    public var serverKey: String { transport.serverName }

    public func run() async throws -> Summary {
        var summary = Summary()
        let calendar = options.calendar
        let today = Day(options.now, in: calendar)
        guard let firstTime = try await service.firstReadingTime() else { return summary }
        let firstDay = Day(Date(millisecondsSince1970: firstTime), in: calendar)
        let from = max(firstDay, options.since ?? firstDay)
        guard from <= today else { return summary }
        // The weight carried into the first day needs the 30 days before it.
        let carryStart = from.adding(days: -WeightSeriesBuilder.carryDays)
        let totals = try await service.dailyTotals(days: carryStart...today, calendar: calendar)
        // No nights: none of the attributes pushed (`ExistPushPlan.attributes`) is a night's.
        let daily = DailyAttributes.build(totals: totals, days: carryStart...today, profile: try await service.profile(), calendar: calendar)
        let all = ExistPushPlan.values(daily, days: from...today)
        let sent = options.since == nil ? try await service.existPushed(server: serverKey) : [:]
        let pending = ExistPushPlan.changed(all, sent: sent)
        for value in all { summary.counts[value.attribute, default: .init()].unchanged += 1 }
        for value in pending { summary.counts[value.attribute, default: .init()].unchanged -= 1 }
        if options.dryRun {
            summary.planned = pending
            return summary
        }
        guard !pending.isEmpty else { return summary }

        let wanted = ExistPushPlan.attributes.filter { a in pending.contains { $0.attribute == a } }
        var usable = Set(try await acquire(wanted, &summary))
        var reacquired = Set<InsightAttribute>()
        var queue = pending.filter { usable.contains($0.attribute) }
        for value in pending where !usable.contains(value.attribute) {
            summary.counts[value.attribute, default: .init()].failed += 1
        }
        while !queue.isEmpty {
            let batch = Array(queue.prefix(Self.batchSize))
            queue.removeFirst(batch.count)
            let (accepted, failed) = try await update(batch, &summary)
            try await service.rememberExistPushed(server: serverKey,
                                                values: accepted.map { ($0.attribute.name, $0.day.description, $0.value) })
            for value in accepted { summary.counts[value.attribute, default: .init()].sent += 1 }
            // `unauthorised`: another app took the attribute. Take it back once, and send those again.
            let lost = Set(failed.filter { $0.code == "unauthorised" }.map(\.value.attribute)).subtracting(reacquired)
            if !lost.isEmpty {
                reacquired.formUnion(lost)
                usable = usable.intersection(Set(try await acquire(Array(lost), &summary))).union(usable.subtracting(lost))
            }
            for failure in failed {
                if failure.code == "unauthorised", lost.contains(failure.value.attribute), usable.contains(failure.value.attribute) {
                    queue.append(failure.value)
                    continue
                }
                summary.counts[failure.value.attribute, default: .init()].failed += 1
                note(&summary, "\(failure.value.attribute.name) \(failure.value.day): \(failure.code): \(failure.message)")
            }
        }
        return summary
    }

    private func note(_ summary: inout Summary, _ problem: String) {
        if summary.problems.count < 10 { summary.problems.append(problem) }
    }

    /// Acquires the attributes; returns those the server gave this client.
    private func acquire(_ attributes: [InsightAttribute], _ summary: inout Summary) async throws -> [InsightAttribute] {
        let objects = attributes.map { ["template": $0.name] }
        let answer = try await post("attributes/acquire/", objects, &summary)
        var failed = Set<String>()
        for item in answer.failed {
            let name = item["template"] as? String ?? item["name"] as? String ?? "?"
            failed.insert(name)
            note(&summary, "\(name): could not acquire: \(item["error_code"] as? String ?? "?"): \(item["error"] as? String ?? "")")
        }
        return attributes.filter { !failed.contains($0.name) }
    }

    private struct Failed {
        var value: ExistPushPlan.Value
        var code: String
        var message: String
    }

    /// Sends one batch with `update`; returns what the server accepted and what it refused.
    private func update(_ batch: [ExistPushPlan.Value], _ summary: inout Summary) async throws -> ([ExistPushPlan.Value], [Failed]) {
        let objects: [[String: Any]] = batch.map { v in
            ["name": v.attribute.name, "date": v.day.description,
             "value": v.attribute.existValueType == 0 ? Int(rounding: v.value) as Any : v.value as Any]
        }
        let answer = try await post("attributes/update/", objects, &summary)
        var refused: [Failed] = []
        var refusedKeys = Set<String>()
        for item in answer.failed {
            let name = item["name"] as? String ?? "", date = item["date"] as? String ?? ""
            guard let value = batch.first(where: { $0.attribute.name == name && $0.day.description == date }) else { continue }
            refusedKeys.insert(name + " " + date)
            refused.append(Failed(value: value, code: item["error_code"] as? String ?? "error", message: item["error"] as? String ?? ""))
        }
        let accepted = batch.filter { !refusedKeys.contains($0.attribute.name + " " + $0.day.description) }
        return (accepted, refused)
    }

    /// POSTs a write to `/api/2/<path>`, waiting out 429s; the answer's `success` and `failed` lists.
    private func post(_ path: String, _ objects: [[String: Any]], _ summary: inout Summary) async throws
        -> (success: [[String: Any]], failed: [[String: Any]]) {
        let body = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
        let url = transport.url("/api/2/" + path)
        for _ in 0..<20 {
            summary.requests += 1
            let reply = try await transport.send("POST", url, headers: ["Authorization": "Bearer \(options.token)",
                                                                          "Content-Type": "application/json",
                                                                          "Accept": "application/json"], body: body)
            switch reply.status {
            case 200, 202:
                let object = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any]
                guard let object else {
                    throw HealthError.serverError("\(transport.serverName) answered \(path) with something that is not Exist's JSON")
                }
                return (object["success"] as? [[String: Any]] ?? [], object["failed"] as? [[String: Any]] ?? [])
            case 429:
                let wait = Self.retryDelay(reply, now: Date())
                guard wait <= options.longestWait else {
                    throw HealthError.serverError("\(transport.serverName) limits requests and asks to wait \(Int(rounding: wait, .up)) s: push again later")
                }
                summary.rateLimitWaits += 1
                try await options.sleep(wait)
            case 401:
                throw HealthError.invalidValue("\(transport.serverName) refused the token (401): check --token-file or HMON_EXIST_TOKEN, or sign in again")
            case 403:
                throw HealthError.invalidValue("\(transport.serverName) does not let this token write (403): it needs an OAuth2 token with the *_write scopes of the attributes")
            default:
                throw HealthError.serverError("\(transport.serverName) answered \(path) with HTTP \(reply.status)\(Self.message(reply).map { ": \($0)" } ?? "")")
            }
        }
        throw HealthError.serverError("\(transport.serverName) kept answering 429 (too many requests): push again later")
    }

    /// The server's own words from an error answer (Exist's `detail`, hmon's `error.message`), shortened.
    static func message(_ reply: HTTPReply) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any] else { return nil }
        let text = object["detail"] as? String ?? (object["error"] as? [String: Any])?["message"] as? String
        return text.map { String($0.prefix(200)) }
    }

    /// Seconds to wait after a 429: `Retry-After`, else the earliest reset in `X-RateLimit-Reset` (Exist:
    /// seconds) or `X-Rate-Limit-Reset` (hmon: epoch seconds per window); a minute when neither says.
    static func retryDelay(_ reply: HTTPReply, now: Date) -> Double {
        if let text = reply.header("Retry-After"), let seconds = Double(text.trimmingCharacters(in: .whitespaces)) {
            return max(1, seconds)
        }
        let resets = (reply.header("X-RateLimit-Reset") ?? reply.header("X-Rate-Limit-Reset") ?? "")
            .split(separator: "/").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .map { $0 > 1_000_000_000 ? $0 - now.timeIntervalSince1970 : $0 }
            .filter { $0 > 0 }
        return max(1, resets.min() ?? 60)
    }
}
