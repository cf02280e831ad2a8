import Foundation
import HealthCore
import HealthModel
import Hummingbird
import NIOCore

/// Exist's paged lists: `{"count","next","previous","results"}` with `page` (from 1) and `limit` (max 100),
/// `next` and `previous` as full URLs of the same request with another page.
struct ExistPaging {
    static let maxLimit = 100
    let page: Int
    let limit: Int

    init(_ query: [String: String], defaultLimit: Int = 20) throws {
        page = try RequestInput.int(query, "page", in: 1...1_000_000, default: 1)
        limit = try RequestInput.int(query, "limit", in: 1...Self.maxLimit, default: defaultLimit)
    }

    /// Where this page starts among `count` results.
    var offset: Int { (page - 1) * limit }

    /// The page of `all`, in the envelope.
    func envelope(_ all: [Any], request: Request, origin: String) throws -> [String: Any] {
        try envelope(count: all.count, results: Array(all.dropFirst(offset).prefix(limit)), request: request, origin: origin)
    }

    /// A page made by the caller (`results` already this page's), out of `count` in all. A page past the
    /// last is 404 "Invalid page.", as Exist (Django REST framework's paginator) answers; the first page
    /// of nothing is an empty list.
    func envelope(count: Int, results: [Any], request: Request, origin: String) throws -> [String: Any] {
        if page > 1, offset >= count { throw APIError(.notFound, code: 404, message: "Invalid page.") }
        let hasNext = offset + limit < count
        let hasPrevious = page > 1
        return [
            "count": count,
            "next": hasNext ? url(request, origin: origin, page: page + 1) : NSNull(),
            "previous": hasPrevious ? url(request, origin: origin, page: min(page - 1, max(1, (count + limit - 1) / limit))) : NSNull(),
            "results": results,
        ]
    }

    /// The request's own address with `page` set: the origin clients reach the server at (`LinkOrigin`), its
    /// path, its other parameters.
    private func url(_ request: Request, origin: String, page: Int) -> String {
        var pairs = FormEncoding.decode(request.uri.query ?? "").filter { $0.key != "page" }.sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
        pairs.append(("page", "\(page)"))
        return origin + request.uri.path + "?" + String(decoding: FormEncoding.encode(pairs), as: UTF8.self)
    }
}

/// Dates of `/api/2/` requests: `YYYY-MM-DD` from 1971 to 9998, so a window of a month or a 30-day carry
/// around one never leaves the years the calendar arithmetic and the store's timestamps handle.
enum ExistDate {
    static let accepted = Day(year: 1971, month: 1, day: 1)...Day(year: 9998, month: 12, day: 31)

    static func parse(_ text: String) -> Day? {
        guard let day = Day(iso: text), accepted.contains(day) else { return nil }
        return day
    }

    /// A date parameter of the query; nil when absent, 400 naming it when it is not a date.
    static func query(_ query: [String: String], _ name: String) throws -> Day? {
        guard let text = query[name], !text.isEmpty else { return nil }
        guard let day = parse(text) else {
            throw APIError.validation(name, "must be a date YYYY-MM-DD from 1971 to 9998, got \"\(text.prefix(40))\"")
        }
        return day
    }
}

/// JSON answers of `/api/2/` made with `JSONSerialization` (the objects `ExistObjects` builds).
enum ExistJSON {
    static func response(_ object: Any, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data(#"{"error":{"code":500,"message":"Internal Server Error"}}"#.utf8)
        return Response(status: status, headers: [.contentType: JSONBody.contentType], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
