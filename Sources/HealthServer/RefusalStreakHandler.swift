import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection that goes on sending requests after being told to wait: its `limit`th 429 in a
/// row (the rate limit's, or any other "try later") goes out with `Connection: close`, and the connection
/// closes once it is written, dropping whatever the client pipelined behind it. Without this a client that
/// pipelines and never reads kept the server answering 429s, tens of thousands a second, from what it
/// had queued in the socket. Any other answer starts the count again, so a client that waits as told
/// keeps its connection.
final class RefusalStreakHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: Int
    /// Told of the close, so that the same client's next connections wait before they are read.
    private let refusedAddresses: RefusedAddresses?
    private var streak = 0
    private var closesAfterThisAnswer = false

    init(limit: Int, refusedAddresses: RefusedAddresses? = nil) {
        self.limit = max(1, limit)
        self.refusedAddresses = refusedAddresses
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            streak = head.status == .tooManyRequests ? streak + 1 : 0
            guard streak >= limit, !closesAfterThisAnswer else { break }
            closesAfterThisAnswer = true
            refusedAddresses?.refused(context.channel.remoteAddress?.ipAddress)
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
            return
        case .body:
            break
        case .end:
            guard closesAfterThisAnswer else { break }
            let channel = context.channel
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            return
        }
        context.write(data, promise: promise)
    }
}
