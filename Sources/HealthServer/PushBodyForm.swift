import Foundation
import Hummingbird

/// How a pushed body is held while it is read: whole in memory (`Data`) or in a temporary file
/// (`BodySpool`). Each piece is shown to `observe` as it arrives, so a signature is checked over a spooled
/// body without reading its file again.
protocol PushBodyForm {
    /// The request's body, or `APIError.payloadTooLarge` past `limit` bytes.
    static func read(_ request: Request, limit: Int, observe: (UnsafeRawBufferPointer) -> Void) async throws -> Self
    /// Lets go of what holding it took (a spooled body's file).
    func discard()
    /// How many bytes the body has.
    var byteCount: Int { get }
}

extension Data: PushBodyForm {
    static func read(_ request: Request, limit: Int, observe: (UnsafeRawBufferPointer) -> Void) async throws -> Data {
        // Past the limit, a 413 (`ErrorEnvelopeMiddleware`).
        let buffer = try await request.body.collect(upTo: limit)
        let bytes = Data(buffer.readableBytesView)
        bytes.withUnsafeBytes(observe)
        return bytes
    }

    func discard() {}
    var byteCount: Int { count }
}

extension BodySpool: PushBodyForm {
    static func read(_ request: Request, limit: Int, observe: (UnsafeRawBufferPointer) -> Void) async throws -> BodySpool {
        try await write(request, limit: limit, observe: observe)
    }

    func discard() { remove() }
    var byteCount: Int { size }
}
