import Foundation
import HealthCore
import HealthModel
import Hummingbird
import NIOCore

/// Reading what a request brings: query parameters, form bodies and JSON bodies, each bounded by the
/// contract's 10 KB and each failure a 400 that names the field (or 413 for a body that is too large).
enum RequestInput {
    /// The query string's parameters (`+` is a space, `%xx` decoded; a repeated name keeps the last value).
    /// A parameter holding a control character (`%00`, `%1B`) is refused with 400 naming it: no name, id,
    /// field or date has one, and PostgreSQL refuses NUL in text outright (a 500 before).
    static func query(_ request: Request) throws -> [String: String] {
        let query = FormEncoding.decode(request.uri.query ?? "")
        for (name, value) in query.sorted(by: { $0.key < $1.key }) {
            if let (scalar, _) = TextRules.firstUnsafe(in: name) {
                throw APIError.validation(String(name.unicodeScalars.filter { !TextRules.isUnsafe($0) }.prefix(40)),
                                          "holds \(TextRules.describe(scalar)) in its name: remove it")
            }
            if let (scalar, position) = TextRules.firstUnsafe(in: value) {
                throw APIError.validation(name, "holds \(TextRules.describe(scalar)) at character \(position): remove it")
            }
        }
        return query
    }

    /// An `application/x-www-form-urlencoded` body; a field holding a NUL is refused (`formFields`).
    static func form(_ request: Request) async throws -> [String: String] {
        try formFields(try await bytes(request))
    }

    /// A form body's fields. A NUL (`%00`) in a field's name or value is a 400 naming the field: PostgreSQL
    /// refused it (a 500) and SQLite cut the text at it (`username=alice%00` signed in as alice), so no
    /// store is ever asked with one. Other characters stay a route's business (a password may hold any).
    static func formFields(_ body: Data) throws -> [String: String] {
        let fields = FormEncoding.decode(String(decoding: body, as: UTF8.self))
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            if name.utf8.contains(0) {
                throw APIError.validation(String(name.unicodeScalars.filter { $0 != "\0" }.prefix(40)), "holds a NUL character (U+0000) in its name: remove it")
            }
            if value.utf8.contains(0) { throw APIError.validation(name, Self.nulProblem) }
        }
        return fields
    }

    /// A JSON body decoded as `T`; a malformed body or a bad field is a 400/4001 naming the field.
    static func json<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let body = try await jsonBytes(request)
        if body.isEmpty { throw APIError.validation("body", "is empty: send a JSON object") }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let error as DecodingError {
            throw problem(error)
        }
    }

    /// A JSON body's bytes, refused with a 400 naming the field when any string in it (a key or a value)
    /// holds a NUL (`\u0000`): the same rule as for forms and query parameters.
    static func jsonBytes(_ request: Request) async throws -> Data {
        let body = try await bytes(request)
        if let field = JSONNUL.field(in: body) { throw APIError.validation(field, nulProblem) }
        return body
    }

    static let nulProblem = "holds a NUL character (U+0000): remove it"

    /// The body's bytes, at most `ServerLimits.maxBodyBytes` (413 beyond).
    static func bytes(_ request: Request) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > ServerLimits.maxBodyBytes {
            throw APIError.payloadTooLarge
        }
        do {
            let buffer = try await request.body.collect(upTo: ServerLimits.maxBodyBytes)
            return Data(buffer: buffer)
        } catch is NIOTooManyBytesError {
            throw APIError.payloadTooLarge
        }
    }

    /// An integer query parameter within `range`; `fallback` when absent.
    static func integer(_ query: [String: String], _ name: String, in range: ClosedRange<Int64>, default fallback: Int64? = nil) throws -> Int64 {
        guard let text = query[name], !text.isEmpty else {
            if let fallback { return fallback }
            throw APIError.validation(name, "is required")
        }
        guard let value = Int64(text) else { throw APIError.validation(name, "must be a whole number, got \"\(text.prefix(40))\"") }
        guard range.contains(value) else {
            throw APIError.validation(name, "must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
        return value
    }

    static func int(_ query: [String: String], _ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        Int(try integer(query, name, in: Int64(range.lowerBound)...Int64(range.upperBound), default: Int64(fallback)))
    }

    /// A boolean query parameter: `true`/`false` or `1`/`0`.
    static func flag(_ query: [String: String], _ name: String, default fallback: Bool) throws -> Bool {
        switch query[name]?.lowercased() {
        case nil, "": return fallback
        case "true", "1": return true
        case "false", "0": return false
        case let other?: throw APIError.validation(name, "must be true, false, 1 or 0, got \"\(other.prefix(40))\"")
        }
    }

    /// A required text parameter.
    static func text(_ query: [String: String], _ name: String) throws -> String {
        guard let value = query[name], !value.isEmpty else { throw APIError.validation(name, "is required") }
        return value
    }

    /// 400/4001 for a decoding failure, naming the field by its path ("data.weight").
    static func problem(_ error: DecodingError) -> APIError {
        func path(_ keys: [CodingKey], _ last: CodingKey? = nil) -> String {
            let all = keys + (last.map { [$0] } ?? [])
            let text = all.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
            return text.isEmpty ? "body" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .validation(path(context.codingPath, key), "is required")
        case .valueNotFound(_, let context):
            return .validation(path(context.codingPath), "must not be null")
        case .typeMismatch(let type, let context):
            return .validation(path(context.codingPath), "must be \(describe(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .validation("body", "is not valid JSON: \(context.underlyingErrorSummary ?? context.debugDescription)")
            }
            return .validation(path(context.codingPath), context.debugDescription)
        @unknown default:
            return .validation("body", "cannot be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Int64.self || type == Int.self { return "a whole number" }
        if type == Double.self || type == FieldValue.self { return "a number or a string" }
        if type == Bool.self { return "true or false" }
        let name = "\(type)"
        if name.hasPrefix("Dictionary") { return "a JSON object" }
        if name.hasPrefix("Array") { return "a JSON array" }
        return "a \(name)"
    }
}

extension DecodingError.Context {
    /// The parser's own words ("Unexpected character 'x' around line 1, column 3"), without type names.
    var underlyingErrorSummary: String? {
        guard let underlying = underlyingError else { return nil }
        let text = (underlying as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(underlying)"
        return text.count > 200 ? String(text.prefix(200)) : text
    }
}
