import Foundation
import HealthCore
import SAMIContract
import HealthModel
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// Turns every thrown error into the contract's error envelope: unknown routes become
/// `{"error":{"code":404,"message":"Not Found"}}`, an oversize body 413, a `HealthError` its status.
/// Unexpected errors are logged (by type, never with request data) and answered with a 500 envelope; an
/// unreachable database is a 503 with `Retry-After`, logged once an outage (`DatabaseOutageLog`).
struct ErrorEnvelopeMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger
    let outages: DatabaseOutageLog

    func handle(_ request: Request, context: ServerContext,
                next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            if outages.isOpen, response.status.code < 500 { outages.answered() }
            return response
        } catch {
            return try Self.apiError(for: error, logger: logger, outages: outages).response(from: request, context: context)
        }
    }

    static func apiError(for error: Error, logger: Logger, outages: DatabaseOutageLog) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HealthError:
            let answer = APIError.from(error)
            if case .storeUnreachable(let message) = error {
                outages.refused(message)
                return answer
            }
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
        case HTTPParserError.invalidEOFState, ChannelError.eof, ChannelError.inputClosed, ChannelError.ioOnClosedChannel:
            // The connection closed while its request was still arriving: the body deadline closed it, or the
            // client went away. Nobody will read an answer, and nothing failed on the server's side: a 500
            // here sent an administrator looking for a bug that was a slow phone.
            logger.info("a request's body did not arrive whole before its connection closed (the body deadline, or the client left)")
            return .requestIncomplete
        case is HTTPParserError:
            return APIError(.badRequest, code: SAMI.ErrorCode.validation, message: "the request is not well-formed HTTP")
        default:
            logger.error("unexpected error: \(type(of: error))")
            return .internalError
        }
    }
}
