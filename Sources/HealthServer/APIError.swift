import Foundation
import HealthCore
import SAMIContract
import HealthModel
import Hummingbird

/// An error answer in the contract's envelope: `{"error":{"code":…,"message":"…"}}`.
///
/// Every failure of a `/v1.1` route ends up as one of these (see `ErrorEnvelopeMiddleware`), so a client
/// never sees Hummingbird's bare status pages.
struct APIError: Error, HTTPResponseError {
    let status: HTTPResponse.Status
    let envelope: SAMI.ErrorEnvelope
    /// Extra headers of the answer (`Retry-After` on 429 and 503).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, code: Int, message: String, errors: [[SAMI.ErrorEnvelope.FieldProblem]]? = nil,
         headers: HTTPFields = [:]) {
        self.status = status
        envelope = SAMI.ErrorEnvelope(code: code, message: message, errors: errors)
        self.headers = headers
    }

    /// SAMI's envelope on SAMI's routes; on Exist's (`/api/…`), Exist's own error body, Django REST
    /// framework's `{"detail": "…"}`, which its clients read; a field's problem also under the field's
    /// name (`{"password": ["is required"]}`), as that framework words a bad field.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        if request.uri.path.hasPrefix("/api/") {
            let problems = (envelope.error.errors ?? []).flatMap { $0 }
            var body: [String: Any] = [:]
            for problem in problems { body[problem.field] = problem.messages }
            body["detail"] = problems.isEmpty ? envelope.error.message
                : problems.map { "\($0.field) \($0.messages.joined(separator: ", "))" }.joined(separator: "; ")
            var response = ExistJSON.response(body, status: status)
            response.headers.append(contentsOf: headers)
            return response
        }
        return JSONBody.response(envelope, status: status, headers: headers)
    }

    static let unauthorized = APIError(.unauthorized, code: SAMI.ErrorCode.unauthorized,
                                       message: "Please provide a valid authorization header")
    static let forbidden = APIError(.forbidden, code: SAMI.ErrorCode.forbidden, message: "You don't have the right permissions")
    static let notFound = APIError(.notFound, code: SAMI.ErrorCode.notFound, message: "Not Found")
    static let deviceTypeNotFound = APIError(.notFound, code: SAMI.ErrorCode.deviceTypeNotFound,
                                             message: "Device type does not exist.")
    static let userNotFound = APIError(.notFound, code: SAMI.ErrorCode.userNotFound, message: "User does not exist.")
    static let payloadTooLarge = APIError(.contentTooLarge, code: SAMI.ErrorCode.payloadTooLarge, message: "Payload too large")
    static let rateLimited = APIError(.tooManyRequests, code: SAMI.ErrorCode.rateLimited, message: "rate limit exceeded")
    static let methodNotAllowed = APIError(.methodNotAllowed, code: 405, message: "Method Not Allowed")
    static let internalError = APIError(.internalServerError, code: 500, message: "Internal Server Error")
    /// The connection closed before the request had all arrived: logged as 408 (what nginx logs for a body
    /// that timed out), though no client is left to read it.
    static let requestIncomplete = APIError(.requestTimeout, code: 408, message: "The request did not arrive whole")
    /// The store stayed locked by another writer past the busy timeout: nothing was written; try again.
    static let storeBusy = APIError(.serviceUnavailable, code: 503, message: "The store is busy: try again shortly",
                                    headers: [.retryAfter: "\(ServerLimits.busyRetryAfterSeconds)"])

    /// The database server cannot be reached (stopped, restarting): nothing was done; try again.
    static let storeUnreachable = APIError(.serviceUnavailable, code: 503,
                                           message: "The database cannot be reached: try again shortly",
                                           headers: [.retryAfter: "\(ServerLimits.unreachableRetryAfterSeconds)"])

    /// 429 for an account (or client) that failed to sign in too often, or 503 when the password checks are
    /// all taken; either way with the seconds to wait in `Retry-After`.
    static func tryLater(_ status: HTTPResponse.Status, seconds: Int, message: String) -> APIError {
        APIError(status, code: status.code, message: message, headers: [.retryAfter: "\(max(1, seconds))"])
    }

    /// 400/4001 naming the field and what is wrong with it.
    static func validation(_ field: String, _ problem: String) -> APIError {
        APIError(.badRequest, code: SAMI.ErrorCode.validation, message: "Validation Error",
                 errors: [[SAMI.ErrorEnvelope.FieldProblem(field: field, messages: [problem])]])
    }

    /// The answer for a `HealthError` the service core threw while serving a request.
    static func from(_ error: HealthError) -> APIError {
        switch error {
        case .notSignedIn, .sessionExpired, .wrongPassword: .unauthorized
        case .notYourDevice, .notYourReading: .forbidden
        case .unknownDevice, .unknownReading: .notFound
        case .unknownDeviceType: .deviceTypeNotFound
        case .unknownUser: .userNotFound
        case .nameTaken: APIError(.conflict, code: SAMI.ErrorCode.userNameTaken, message: "Username already registered.")
        case .invalidValue(let what): validation(Self.field(in: what), what)
        case .unsupported(let what): APIError(.badRequest, code: SAMI.ErrorCode.validation, message: what)
        case .storeBusy: .storeBusy
        case .storeUnreachable: .storeUnreachable
        case .storeUnavailable, .unusableStore, .serverUnreachable, .serverError: .internalError
        }
    }

    /// The field an `invalidValue` message is about, by its first word ("weight 700 kg is outside …" → weight).
    /// The field a core message is about: its first word when that is a field's name ("weight must be…",
    /// "data.weight …"); a sentence that opens with an article names no one field, so it is "data".
    static func field(in message: String) -> String {
        let word = message.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        return word.isEmpty || ["the", "a", "an"].contains(word.lowercased()) ? "data" : String(word)
    }
}

/// JSON answers. Encoding never fails for the contract's types; if it did, the answer is a 500 envelope.
enum JSONBody {
    static let contentType = "application/json; charset=utf-8"

    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = contentType
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            return Response(status: .internalServerError, headers: [.contentType: contentType],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"code":500,"message":"Internal Server Error"}}"#)))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
