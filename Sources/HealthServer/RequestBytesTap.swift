import NIOCore

/// Sent up the pipeline each time bytes arrive, before the HTTP decoder sees them: the only way the
/// deadline handler (which sees whole requests parts) can tell "nothing sent yet" from "half a head".
struct RequestBytesArrived: Sendable {}

/// The first handler of every connection, on raw bytes. It announces arriving bytes (see
/// `RequestBytesArrived`) and, for a connection over the cap, answers 503 with `Retry-After` and closes
/// at once, reading nothing — the connection never reaches the HTTP decoder or the router.
final class RequestBytesTap: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let refuse: Bool
    private var refused = false

    init(refuse: Bool) { self.refuse = refuse }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuseIfOverCap(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuseIfOverCap(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refuse else { return }
        context.fireUserInboundEventTriggered(RequestBytesArrived())
        context.fireChannelRead(data)
    }

    private func refuseIfOverCap(_ context: ChannelHandlerContext) {
        guard refuse, !refused else { return }
        refused = true
        let body = #"{"error":{"code":503,"message":"Too many connections: try again shortly"}}"#
        let head = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: \(ServerLimits.connectionsFullRetryAfterSeconds)\r\n"
            + "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head + body))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
