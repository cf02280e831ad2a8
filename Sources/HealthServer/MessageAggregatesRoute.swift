import Foundation
import HealthCore
import HealthModel
import Hummingbird

/// SAMI's `GET /v1.1/messages/analytics/aggregates?sdid&field&startDate&endDate`: the count, minimum,
/// maximum, mean, sum and variance of one field of one device's readings over at most 31 days, as SAMI's
/// docs show it (`{"sdid","startDate","endDate","field","size":1,"data":[{"count","min","max","mean","sum",
/// "variance"}]}`). The variance is the population variance (divided by the count): SAMI's docs do not
/// say which, and a client comparing with its own mean of squares gets the same figure.
extension APIRoutes {
    /// SAMI's limit on the range of one request.
    static let maxAggregateRange: Int64 = 31 * 24 * 3600 * 1000

    func aggregates(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (_, service) = try reader(context)
        let query = try RequestInput.query(request)
        let sdid = try RequestInput.text(query, "sdid")
        let field = try RequestInput.text(query, "field")
        let startDate = try RequestInput.integer(query, "startDate", in: 0...Int64.max)
        let endDate = try RequestInput.integer(query, "endDate", in: 0...Int64.max)
        guard startDate <= endDate else { throw APIError.validation("startDate", "must not be after endDate") }
        guard endDate - startDate <= Self.maxAggregateRange else {
            throw APIError.validation("endDate", "is more than 31 days after startDate: ask for 31 days at a time")
        }
        var summary = FieldSummary()
        var page = MessageQuery(sdid: sdid, startDate: startDate, endDate: endDate, order: .asc,
                                count: StoreRules.maximumPageSize, fieldPresence: field)
        while true {
            let found = try await service.messages(page)
            for message in found.messages { if let value = message.data[field]?.number { summary.add(value) } }
            guard let next = found.next else { break }
            page.offset = next
        }
        let data = summary.count == 0 ? [] : [AggregatesReply.Figures(count: summary.count, min: summary.min, max: summary.max,
                                                                      mean: summary.mean, sum: summary.sum, variance: summary.variance)]
        return JSONBody.response(AggregatesReply(sdid: sdid, field: field, startDate: startDate, endDate: endDate,
                                                 size: data.count, data: data))
    }
}

/// The answer's shape, as SAMI's docs show it.
struct AggregatesReply: Encodable {
    struct Figures: Encodable {
        var count: Int
        var min, max, mean, sum, variance: Double
    }

    var sdid, field: String
    var startDate, endDate: Int64
    var size: Int
    var data: [Figures]
}

/// Count, extremes, sum, mean and population variance of a stream of values, by Welford's method
/// (Knuth, TAOCP vol. 2, 4.2.2): one pass, and no cancellation from subtracting two large sums of squares.
struct FieldSummary {
    private(set) var count = 0
    private(set) var min = Double.infinity
    private(set) var max = -Double.infinity
    private(set) var sum = 0.0
    private(set) var mean = 0.0
    private var squaredDeviations = 0.0

    mutating func add(_ value: Double) {
        count += 1
        min = Swift.min(min, value)
        max = Swift.max(max, value)
        sum += value
        let delta = value - mean
        mean += delta / Double(count)
        squaredDeviations += delta * (value - mean)
    }

    var variance: Double { count == 0 ? 0 : squaredDeviations / Double(count) }
}
