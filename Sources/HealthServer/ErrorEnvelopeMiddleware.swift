import Foundation
import HealthCore
import HealthModel
import Hummingbird
import Logging
import NIOCore

/// Turns every thrown error into the contract's error envelope: unknown routes become
/// `{"error":{"code":404,"message":"Not Found"}}`, an oversize body 413, a `HealthError` its status.
/// Unexpected errors are logged (by type, never with request data) and answered with a 500 envelope.
struct ErrorEnvelopeMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.apiError(for: error, logger: logger).response(from: request, context: context)
        }
    }

    static func apiError(for error: Error, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HealthError:
            let answer = APIError.from(error)
            if answer.status == .internalServerError { logger.error("store failure: \(error.message)") }
            if answer.status == .serviceUnavailable { logger.warning("store busy: answered 503") }
            return answer
        case is NIOTooManyBytesError:
            return .payloadTooLarge
        case let error as HTTPError:
            switch error.status {
            case .notFound: return .notFound
            case .methodNotAllowed: return .methodNotAllowed
            case .contentTooLarge: return .payloadTooLarge
            case .unauthorized: return .unauthorized
            case .badRequest: return APIError(.badRequest, code: SAMI.ErrorCode.validation, message: error.body ?? "Bad Request")
            default: return APIError(error.status, code: error.status.code, message: error.status.reasonPhrase)
            }
        case let error as HTTPResponseError:
            return APIError(error.status, code: error.status.code, message: error.status.reasonPhrase)
        default:
            logger.error("unexpected error: \(type(of: error))")
            return .internalError
        }
    }
}
